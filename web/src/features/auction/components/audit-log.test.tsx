import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveProvider } from '@/lib/live'
import { LiveClient } from '@/lib/live-client'
import { mockApi, type MockRequest } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { AuditEntry } from '../types'
import { AuditLog, when } from './audit-log'

const organiser = { user_id: 1, name: 'league.organiser', discord_verified: true }
const impostor = { user_id: 12, name: 'league.organiser (unverified)', discord_verified: false }
const anonymous = { user_id: null, name: 'anonymous', discord_verified: false }

const entry = (id: number, action: string, actor: AuditEntry['actor']): AuditEntry => ({
  id,
  at: new Date(Date.now() - (100 - id) * 60_000).toISOString(),
  actor,
  action,
  tournament: 'PPL7',
  target: `target ${id}`,
  data: {},
})

/**
 * The server's audit log as GET /admin/audit serves it: newest first, three entries a page, `next`
 * the last id of a full page, filters by action and actor, the actions listed on the first page.
 */
function auditServer(entries: AuditEntry[]) {
  const log = [...entries]
  const route = (req: MockRequest) => {
    const before = Number(req.query.get('before') ?? 0)
    const action = req.query.get('action') ?? ''
    const actor = Number(req.query.get('actor') ?? 0)
    const match = log
      .filter((e) => (!before || e.id < before) && (!action || e.action === action) && (!actor || e.actor.user_id === actor))
      .sort((a, b) => b.id - a.id)
    const page = match.slice(0, 3)
    return {
      body: {
        entries: page,
        next: match.length > 3 ? page[2].id : null,
        actions: before ? undefined : [...new Set(log.map((e) => e.action))].sort(),
      },
    }
  }
  return { log, route }
}

function setup(entries: AuditEntry[]) {
  const server = auditServer(entries)
  const api = mockApi({ 'GET /admin/audit': server.route })
  const client = new LiveClient()
  renderApp(
    <LiveProvider enabled={false} client={client}>
      <AuditLog tournament="PPL7" />
    </LiveProvider>,
  )
  act(() => client.open(() => {}, null))
  const shown = () => within(screen.getByTestId('audit-list')).getAllByRole('listitem').map((li) => li.textContent?.match(/target (\d+)/)?.[1])
  const reads = () => api.callsTo('GET', '/admin/audit').map((c) => Object.fromEntries(c.query))
  return { server, client, shown, reads }
}

const bids = (n: number) => Array.from({ length: n }, (_, i) => entry(i + 1, 'auction.bid', organiser))

describe('the audit log', () => {
  it('loads older pages from the cursor, keeps up with new entries, and shows each entry once', async () => {
    const { server, client, shown, reads } = setup(bids(7))
    await waitFor(() => expect(shown()).toEqual(['7', '6', '5']))
    expect(reads()[0]).toMatchObject({ tournament: 'PPL7' })
    expect(reads()[0].before).toBeUndefined()

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(shown()).toEqual(['7', '6', '5', '4', '3', '2']))
    expect(reads().at(-1)).toMatchObject({ before: '5' })

    // A bid is recorded and announced live: the loaded pages are read again from the newest.
    server.log.push(entry(8, 'auction.bid', organiser))
    act(() => client.handleFrame(JSON.stringify({ type: 'event', topic: 'teams', seq: 1, event: 'auction.bid', data: {} })))
    await waitFor(() => expect(shown()[0]).toBe('8'))
    expect(shown()).toEqual(['8', '7', '6', '5', '4', '3'])

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(shown()).toEqual(['8', '7', '6', '5', '4', '3', '2', '1']))
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(screen.getByText(/8 entries, all shown/)).toBeInTheDocument()
  })

  it('filters by action and by who acted, and clears the filters', async () => {
    const { shown, reads } = setup([
      entry(1, 'tournament.status', organiser),
      entry(2, 'auction.open_lot', organiser),
      ...Array.from({ length: 5 }, (_, i) => entry(3 + i, 'account.login_failed', anonymous)),
      entry(8, 'account.discord_named', impostor),
    ])
    await waitFor(() => expect(shown()).toEqual(['8', '7', '6']))

    const action = screen.getByRole('combobox', { name: 'Action' })
    expect(within(action).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All actions',
      'account.discord_named',
      'account.login_failed',
      'auction.open_lot',
      'tournament.status',
    ])
    fireEvent.change(action, { target: { value: 'tournament.status' } })
    await waitFor(() => expect(shown()).toEqual(['1']))
    expect(reads().at(-1)).toMatchObject({ action: 'tournament.status' })

    fireEvent.change(action, { target: { value: '' } })
    fireEvent.change(screen.getByRole('spinbutton', { name: 'By user id' }), { target: { value: '1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }))
    await waitFor(() => expect(shown()).toEqual(['2', '1']))
    expect(reads().at(-1)).toMatchObject({ actor: '1' })
    expect(reads().at(-1)?.action).toBeUndefined()

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }))
    await waitFor(() => expect(shown()).toEqual(['8', '7', '6']))

    // Picking who acted in a line shows that account's actions only.
    fireEvent.click(screen.getByRole('button', { name: /#12/ }))
    await waitFor(() => expect(shown()).toEqual(['8']))
    expect(screen.getByRole('spinbutton', { name: 'By user id' })).toHaveValue(12)

    fireEvent.change(action, { target: { value: 'auction.open_lot' } })
    await waitFor(() => expect(screen.getByText('Nothing matches these filters.')).toBeInTheDocument())
    expect(reads().at(-1)).toMatchObject({ action: 'auction.open_lot', actor: '12' })
  })

  it('names who acted by account: a proven Discord name marked verified, a typed one as the server marks it', async () => {
    const { shown } = setup([entry(1, 'tournament.status', organiser), entry(2, 'account.discord_named', impostor), entry(3, 'account.login_failed', anonymous)])
    await waitFor(() => expect(shown()).toHaveLength(3))
    const [failed, named, status] = within(screen.getByTestId('audit-list')).getAllByRole('listitem')
    expect(within(status).getByRole('button', { name: /#1 league.organiser/ })).toHaveTextContent('✓ Discord')
    expect(within(named).getByRole('button', { name: /#12/ })).toHaveTextContent('#12 league.organiser (unverified)')
    expect(within(named).queryByText(/✓ Discord/)).not.toBeInTheDocument()
    expect(within(failed).queryByRole('button')).not.toBeInTheDocument()
    expect(failed).toHaveTextContent('by anonymous')
  })
})

describe('when', () => {
  it('writes an entry of today by its time and an older one with its date, as the browser’s own formats do', () => {
    const today = new Date()
    today.setHours(9, 5, 7)
    const older = new Date(2026, 0, 2, 21, 30, 0)
    expect(when(today.toISOString())).toBe(today.toLocaleTimeString())
    expect(when(older.toISOString())).toBe(older.toLocaleString())
  })
})
