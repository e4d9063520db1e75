import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveProvider } from '@/lib/live'
import { LiveClient } from '@/lib/live-client'
import { makeMatch } from '@/testing/league-fixtures'
import { mockApi, type MockRoute } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { Bracket, Standings } from '../types'
import { BracketView } from './bracket-view'
import { PointsTable } from './standings'

const frame = (seq: number, event: string, data: unknown) => JSON.stringify({ type: 'event', topic: 'bracket', seq, event, data })

function bracket(over: Partial<Bracket> = {}): Bracket {
  return {
    tournament: 'PPL7',
    format: 'single_elimination',
    seq: 10,
    seeds: [],
    seeded_by: 'team strength',
    rounds: [{ number: 1, stage: 'quarter_final', matches: [makeMatch()] }],
    champion: null,
    ...over,
  }
}

const table = (points: number): Standings => ({
  tournament: 'PPL7',
  seq: 10,
  stage: 'all',
  scoring: { win: 3, loss: 0, kills_per_point: 50 },
  tie_break: ['points', 'kill difference', 'head-to-head', 'kills'],
  rows: [{ team: 'A', name: 'Team A', played: 1, won: 1, lost: 0, kills: 60, deaths: 10, kill_difference: 50, kill_points: 1, points }],
})

function setup(ui: React.ReactElement, routes: Record<string, MockRoute>) {
  const api = mockApi(routes)
  const client = new LiveClient()
  const sent: unknown[] = []
  renderApp(
    <LiveProvider enabled={false} client={client}>
      {ui}
    </LiveProvider>,
  )
  act(() => client.open((f) => sent.push(f), null))
  return { api, client, sent }
}

describe('the league, live', () => {
  it('the bracket follows match.updated, ignores other tournaments, and refetches on resync', async () => {
    let answer = bracket()
    const { api, client, sent } = setup(<BracketView tournament="PPL7" />, {
      'GET /tournaments/PPL7/bracket': () => ({ body: answer }),
    })
    expect(await screen.findByText('Scheduled')).toBeInTheDocument()
    await waitFor(() => expect(sent).toContainEqual({ type: 'subscribe', topics: ['bracket'], since: { bracket: 10 }, pages: { bracket: '/api/tournaments/PPL7/bracket' } }))

    act(() => client.handleFrame(frame(11, 'match.updated', { tournament: 'PPL6', match: makeMatch({ status: 'live' }) })))
    answer = bracket({ seq: 12, rounds: [{ number: 1, stage: 'final', matches: [makeMatch({ status: 'completed', winner: 'A' })] }], champion: { id: 'A', name: 'Team A' } })
    act(() => client.handleFrame(frame(12, 'match.updated', { tournament: 'PPL7', match: makeMatch({ status: 'completed' }) })))
    await waitFor(() => expect(document.querySelector('.champion-banner')).toHaveTextContent('Team A'))
    expect(screen.getByText('Completed')).toBeInTheDocument()
    expect(api.callsTo('GET', '/tournaments/PPL7/bracket')).toHaveLength(2)

    act(() => client.handleFrame(JSON.stringify({ type: 'resync', topic: 'bracket' })))
    await waitFor(() => expect(api.callsTo('GET', '/tournaments/PPL7/bracket')).toHaveLength(3))

    // After a mass resync the hub brings the bracket along: shown at once, not read again.
    const reset = bracket({ seq: 20, rounds: [{ number: 1, stage: 'final', matches: [makeMatch({ status: 'live' })] }] })
    act(() => client.handleFrame(JSON.stringify({ type: 'resync', topic: 'bracket', seq: 20, path: '/api/tournaments/PPL7/bracket', page: reset })))
    await waitFor(() => expect(document.querySelector('.champion-banner')).toBeNull())
    expect(client.lastSeq('bracket')).toBe(20)
    expect(api.callsTo('GET', '/tournaments/PPL7/bracket')).toHaveLength(3)
  })

  it('the Points Table takes standings.updated as it comes, without a refetch', async () => {
    const { api, client } = setup(<PointsTable tournament="PPL7" />, {
      'GET /tournaments/PPL7/standings': { body: table(3) },
    })
    const row = await screen.findByRole('row', { name: /Team A/ })
    const points = (r: HTMLElement) => r.querySelector('.col-points')
    expect(points(row)).toHaveTextContent('3')
    act(() => client.handleFrame(frame(11, 'standings.updated', { tournament: 'PPL7', standings: table(7), red_cap: { rows: [] } })))
    await waitFor(() => expect(points(screen.getByRole('row', { name: /Team A/ }))).toHaveTextContent('7'))
    act(() => client.handleFrame(frame(12, 'match.updated', { tournament: 'PPL7', match: makeMatch() })))
    expect(api.callsTo('GET', '/tournaments/PPL7/standings')).toHaveLength(1)
  })
})
