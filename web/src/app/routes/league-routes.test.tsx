import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Match } from '@/features/matches/types'
import type { User } from '@/lib/auth'
import { makeUser } from '@/testing/fixtures'
import { makeMatch } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { AppRoutes } from '../router'
// The pages and the tournament's tabs load lazily in the app; imported here up front, a busy
// machine does not time out the first test of each while its chunk compiles.
import './home'
import './tournament'
import '@/features/tournament/components/registered-players'
import '@/features/teams/components/teams-grid'
import '@/features/matches/components/bracket-view'
import '@/features/matches/components/standings'
import '@/features/auth/components/captain-modal'

function at(route: string, user: User | null = null) {
  return renderApp(<AppRoutes />, { route, user })
}

const teams = [
  { id: 'A', name: 'Team A', captain: { user_id: 11, name: 'Ace', image: null }, players: [{ user_id: 12, name: 'Bo', image: null }] },
  { id: 'H', name: 'Thunder', captain: { user_id: 18, name: 'Hex', image: null }, players: [] },
]

const match = (over: Partial<Match> = {}) => makeMatch({ status: 'live', room: 'ROOM42', room_set: true, ...over })

const base = {
  'GET /config': { body: { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' } },
  'GET /tournaments/PPL7/teams': { body: { tournament: 'PPL7', teams } },
  'GET /tournaments': { body: { tournaments: [{ name: 'PPL7', status: 'matches', season: 7 }] } },
}

describe('league pages', () => {
  it('/admin/matches is for organisers only', async () => {
    mockApi(base)
    at('/admin/matches', makeUser({ role: 'captain' }))
    expect(await screen.findByText('Organisers only.')).toBeInTheDocument()
  })

  it('the Points Table lists the rows and states the scoring and the tiebreak order', async () => {
    mockApi({
      ...base,
      'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
      'GET /tournament/info': { body: { name: 'PPL7', status: 'matches', registration_open: false } },
      'GET /tournaments/PPL7/standings': {
        body: {
          tournament: 'PPL7',
          seq: 4,
          stage: 'league',
          scoring: { win: 3, loss: 0, kills_per_point: 50 },
          tie_break: ['points', 'kill difference', 'head-to-head', 'kills'],
          rows: [
            { team: 'H', name: 'Thunder', played: 1, won: 1, lost: 0, kills: 60, deaths: 20, kill_difference: 40, kill_points: 1, points: 4 },
            { team: 'A', name: 'Team A', played: 1, won: 0, lost: 1, kills: 20, deaths: 60, kill_difference: -40, kill_points: 0, points: 0 },
          ],
        },
      },
    })
    at('/tournament?tab=points')
    const table = await screen.findByRole('table')
    const rows = within(table).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('Thunder')
    expect(rows[1]).toHaveTextContent('+40')
    expect(screen.getByTestId('table-rules')).toHaveTextContent(
      'A win 3 points, a loss 0 points, and a point for every 50 kills. Order: points, then kill difference, then head-to-head, then kills.',
    )
  })

  it('/tournament names the season one way (its display name) and its phase in words', async () => {
    mockApi({
      ...base,
      'GET /tournaments': {
        body: {
          tournaments: [
            { name: 'PPL7', display_name: 'PPLS-6.0', status: 'matches', season: 7 },
            { name: 'PPL6', display_name: 'PPL6', status: 'completed', season: 6 },
          ],
        },
      },
      'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 60, seq: 0, players: [] } },
      'GET /tournament/info': { body: { name: 'PPL7', display_name: 'PPLS-6.0', status: 'matches', registration_open: false } },
    })
    at('/tournament')
    expect(await screen.findByRole('heading', { level: 1, name: 'PPLS-6.0' })).toBeInTheDocument()
    expect(await screen.findByText('60 players registered · Matches under way')).toBeInTheDocument()
    await screen.findByRole('option', { name: 'PPL6 (completed)' })
    expect(screen.getByRole('option', { name: 'PPLS-6.0' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'About PPLS-6.0' })).toBeInTheDocument()
    expect(document.title).toBe('PPLS-6.0 · Pitlane')
    const head = document.querySelector('.tournament-page')?.textContent ?? ''
    for (const other of ['status:', 'Tournament PPL7', 'Season 7', 'PPLS-6.0 — PPL7']) expect(head).not.toContain(other)
  })

  it('the bracket crowns the champion under the season’s display name', async () => {
    mockApi({
      ...base,
      'GET /tournaments': { body: { tournaments: [{ name: 'PPL7', display_name: 'PPLS-6.0', status: 'completed', season: 7 }] } },
      'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
      'GET /tournament/info': { body: { name: 'PPL7', display_name: 'PPLS-6.0', status: 'completed', registration_open: false } },
      'GET /tournaments/PPL7/bracket': {
        body: {
          tournament: 'PPL7',
          format: 'single_elimination',
          seq: 3,
          seeds: [],
          seeded_by: 'team strength',
          rounds: [{ number: 1, stage: 'final', matches: [match({ status: 'completed', winner: 'A' })] }],
          champion: { id: 'A', name: 'Team A' },
        },
      },
    })
    at('/tournament?tab=bracket')
    await waitFor(() => expect(document.querySelector('.champion-banner small')).toHaveTextContent('PPLS-6.0 champion'))
  })

  it('a captain reports with the screenshot uploaded first', async () => {
    const api = mockApi({
      ...base,
      'GET /matches/7': { body: { match: match() } },
      'POST /matches/7/proof': { status: 201, body: { screenshotId: 'shot-1', url: '/api/images/shot-1' } },
      'POST /matches/7/report': { body: { match: match({ status: 'reported', reported_by: 'A' }) } },
    })
    at('/matches/7', makeUser({ id: 11, role: 'captain' }))
    expect(await screen.findByTestId('room')).toHaveTextContent('ROOM42')
    fireEvent.click(await screen.findByRole('button', { name: 'Report the result' }))
    const form = screen.getByRole('form', { name: 'Report the result' })
    fireEvent.click(within(form).getByRole('radio', { name: 'Team A' }))
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Ace' }))
    fireEvent.change(within(form).getByLabelText('Kills of Ace'), { target: { value: '12' } })
    fireEvent.change(within(form).getByLabelText('Placement of Ace'), { target: { value: '1' } })
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Hex' }))
    fireEvent.change(within(form).getByLabelText('Kills of Hex'), { target: { value: '5' } })
    fireEvent.change(within(form).getByLabelText('End-of-match screenshot'), {
      target: { files: [new File(['png'], 'end.png', { type: 'image/png' })] },
    })
    fireEvent.click(within(form).getByRole('button', { name: 'Report the result' }))
    await waitFor(() => expect(api.callsTo('POST', '/matches/7/report')).toHaveLength(1))
    expect(api.callsTo('POST', '/matches/7/proof')).toHaveLength(1)
    expect(api.callsTo('POST', '/matches/7/report')[0].body).toEqual({
      winner: 'A',
      players: [
        { userId: 11, kills: 12, deaths: 0, placement: 1 },
        { userId: 18, kills: 5, deaths: 0, placement: 0 },
      ],
      screenshotId: 'shot-1',
    })
  })

  it('the other captain sees the proof and the deadline, and a refusal in plain words', async () => {
    const reported = match({
      status: 'reported',
      reported_by: 'A',
      proof: '/api/images/shot-1',
      confirm_by: new Date(Date.now() + 3_600_000).toISOString(),
      report: { winner: 'A', players: [{ user_id: 11, name: 'Ace', team: 'A', kills: 12, deaths: 0, placement: 1 }] },
    })
    mockApi({
      ...base,
      'GET /matches/7': { body: { match: reported } },
      'POST /matches/7/dispute': { status: 400, body: { message: 'Say why you dispute the result (3 to 500 characters).' } },
    })
    at('/matches/7', makeUser({ id: 18, role: 'captain' }))
    expect(await screen.findByRole('button', { name: 'Confirm result' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'The end-of-match screenshot' })).toHaveAttribute('src', '/api/images/shot-1')
    expect(screen.getByTestId('confirm-by')).toHaveTextContent(/Confirms itself in (1 h|60 min)/)
    fireEvent.click(screen.getByRole('button', { name: 'Dispute' }))
    expect(await screen.findByText('Say why you dispute the result (3 to 500 characters).')).toBeInTheDocument()
  })

  it('the reporter cannot answer their own report, and a stranger sees no forms', async () => {
    mockApi({ ...base, 'GET /matches/7': { body: { match: match({ status: 'reported', reported_by: 'A', room: '' }) } } })
    at('/matches/7', makeUser({ id: 11, role: 'captain' }))
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Team A v Team H · Thunder')
    expect(screen.queryByRole('button', { name: 'Confirm result' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Report the result' })).not.toBeInTheDocument()
  })

  it('the home captain sets the match time; the refusal is in plain words', async () => {
    const when = new Date(2030, 10, 28, 19, 30).toISOString()
    const api = mockApi({
      ...base,
      'GET /matches/7': { body: { match: match() } },
      'POST /matches/7/time': { body: { match: match({ scheduled_at: when }) } },
    })
    at('/matches/7', makeUser({ id: 11, role: 'captain' }))
    const panel = within(await screen.findByRole('region', { name: 'Match time' }))
    expect(panel.getByText(/Not set yet/)).toBeInTheDocument()
    expect(await panel.findByTestId('time-flow')).toHaveTextContent('Agree the time in “Proposed times”: the usual way')
    // The direct way is folded: proposals come first.
    const shortcut = panel.getByText('Set it now').closest('details') as HTMLDetailsElement
    expect(shortcut.open).toBe(false)
    fireEvent.click(panel.getByText('Set it now'))
    fireEvent.change(await panel.findByLabelText('Day and time (your time zone)'), { target: { value: '2030-11-28T19:30' } })
    fireEvent.click(panel.getByRole('button', { name: 'Set time' }))
    await waitFor(() => expect(api.callsTo('POST', '/matches/7/time')).toHaveLength(1))
    expect(api.callsTo('POST', '/matches/7/time')[0].body).toEqual({ at: when })
    expect(await screen.findByTestId('match-time')).toHaveTextContent('Thu 28 Nov, 19:30')
  })

  it('a time the server refuses shows its reason', async () => {
    mockApi({
      ...base,
      'GET /matches/7': { body: { match: match() } },
      'POST /matches/7/time': { status: 422, body: { message: 'The match time must be in the future, within 120 days.' } },
    })
    at('/matches/7', makeUser({ id: 1, role: 'admin' }))
    const panel = within(await screen.findByRole('region', { name: 'Match time' }))
    expect(await panel.findByTestId('time-flow')).toHaveTextContent('As an organiser you set the time here at once')
    fireEvent.change(await panel.findByLabelText('Day and time (your time zone)'), { target: { value: '2020-01-01T10:00' } })
    fireEvent.click(panel.getByRole('button', { name: 'Set time' }))
    expect(await panel.findByText('The match time must be in the future, within 120 days.')).toBeInTheDocument()
  })

  it('the away captain and the public see the time but no form', async () => {
    const when = new Date(2030, 10, 28, 19, 30).toISOString()
    mockApi({ ...base, 'GET /matches/7': { body: { match: match({ scheduled_at: when }) } } })
    at('/matches/7', makeUser({ id: 18, role: 'captain' }))
    expect(await screen.findByTestId('match-time')).toHaveTextContent('Thu 28 Nov, 19:30')
    await screen.findByText(/you captain team H/)
    expect(screen.queryByRole('button', { name: 'Set time' })).not.toBeInTheDocument()
    expect(screen.queryByTestId('time-flow')).not.toBeInTheDocument()
  })

  it('/admin/matches puts an overdue match first, with what it waits for', async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString()
    mockApi({
      ...base,
      'GET /tournaments/PPL7/bracket': { body: { tournament: 'PPL7', format: 'round_robin', rounds: [], champion: null } },
      'GET /tournaments/PPL7/matches': {
        body: {
          matches: [
            match({ id: 8, status: 'scheduled', room: '', room_set: false, scheduled_at: null }),
            match({ id: 9, status: 'live', scheduled_at: hoursAgo(3) }),
          ],
        },
      },
    })
    at('/admin/matches', makeUser({ id: 1, role: 'admin' }))
    const list = within(await screen.findByRole('region', { name: 'Matches to play' }))
    expect(await list.findByText(/1 overdue/)).toBeInTheDocument()
    const rows = list.getAllByRole('listitem').filter((li) => li.dataset.matchId)
    expect(rows.map((li) => li.dataset.matchId)).toEqual(['9', '8'])
    expect(within(rows[0]).getByText(/Overdue: it was due/)).toBeInTheDocument()
  })

  it('/admin/matches makes a Swiss stage with the rounds and top cut the organiser picks', async () => {
    const seeds = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((id, i) => ({ seed: i + 1, team: { id, name: `Team ${id}` }, strength: 2 - i / 10 }))
    const api = mockApi({
      ...base,
      'GET /tournaments/PPL7/bracket': { body: { tournament: 'PPL7', format: '', seq: 1, seeds, seeded_by: 'team strength', rounds: [], champion: null } },
      'GET /tournaments/PPL7/matches': { body: { matches: [] } },
      'POST /admin/tournaments/PPL7/bracket': {
        status: 201,
        body: { tournament: 'PPL7', format: 'swiss', seq: 2, seeds, seeded_by: 'team strength', rounds: [{ number: 1, stage: 'swiss', matches: [match()] }], champion: null, options: { rounds: 4, top_cut: 4 } },
      },
    })
    at('/admin/matches', makeUser({ id: 1, role: 'admin' }))
    await screen.findByRole('region', { name: 'Seeds' }) // the teams are known
    fireEvent.click(screen.getByRole('radio', { name: /Swiss/ }))
    const options = within(screen.getByRole('group', { name: 'Swiss options' }))
    expect(options.getByLabelText('Rounds')).toHaveAttribute('placeholder', '3 (the default)')
    fireEvent.change(options.getByLabelText('Rounds'), { target: { value: '4' } })
    fireEvent.change(options.getByLabelText('Top cut'), { target: { value: '4' } })
    fireEvent.click(screen.getByRole('button', { name: 'Generate fixtures' }))
    expect(await screen.findByText('Fixtures made: 1 matches, Swiss · 4 rounds · top 4 cut.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/admin/tournaments/PPL7/bracket')[0].body).toEqual({ format: 'swiss', rounds: 4, top_cut: 4 })
  })

  it('/admin/matches reorders the seeds before the fixtures and saves the order whole', async () => {
    const seed = (ids: string[]) => ids.map((id, i) => ({ seed: i + 1, team: { id, name: `Team ${id}` }, strength: 1.5 }))
    const api = mockApi({
      ...base,
      'GET /tournaments/PPL7/bracket': { body: { tournament: 'PPL7', format: '', seq: 1, seeds: seed(['A', 'B', 'C']), seeded_by: 'team strength', rounds: [], champion: null } },
      'GET /tournaments/PPL7/matches': { body: { matches: [] } },
      'PUT /admin/tournaments/PPL7/seeds': (req) => ({
        body: { tournament: 'PPL7', format: '', seq: 2, seeds: seed((req.body as { order: string[] }).order), seeded_by: "the organisers' order", rounds: [], champion: null },
      }),
    })
    at('/admin/matches', makeUser({ id: 1, role: 'admin' }))
    const panel = within(await screen.findByRole('region', { name: 'Seeds' }))
    expect(panel.getByRole('button', { name: 'Back to strength' })).toBeDisabled()
    fireEvent.click(await panel.findByRole('button', { name: 'Move team C up' }))
    const order = () => panel.getAllByRole('listitem').map((li) => li.dataset.team)
    expect(order()).toEqual(['A', 'C', 'B'])
    fireEvent.click(panel.getByRole('button', { name: 'Save the order' }))
    await waitFor(() => expect(api.callsTo('PUT', '/admin/tournaments/PPL7/seeds')).toHaveLength(1))
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7/seeds')[0].body).toEqual({ order: ['A', 'C', 'B'] })
    expect(await panel.findByText(/Seeded by the organisers' order/)).toBeInTheDocument()
    expect(order()).toEqual(['A', 'C', 'B'])
    fireEvent.click(panel.getByRole('button', { name: 'Back to strength' }))
    await waitFor(() => expect(api.callsTo('PUT', '/admin/tournaments/PPL7/seeds')).toHaveLength(2))
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7/seeds')[1].body).toEqual({ order: [] })
  })
})
