import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { AuctionView, Bench, LeagueTeam } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'
import type { Player, RegistrationsData } from '@/features/tournament/types'
import type { User } from '@/lib/auth'
import { makePlayer, makeUser } from '@/testing/fixtures'
import { makeLeagueTeam, makeMatch } from '@/testing/league-fixtures'
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
// The routes load lazily in the app; imported here up front so a busy machine does not time out.
import './admin'
import './admin-matches'
import './captain'
import './match'
import './tournament'

const at = (route: string, user: User | null = null) => renderApp(<AppRoutes />, { route, user })
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString()

// PPL7 registering, capped at 3: players 1-3 confirmed (2 checked in, 3 captains team A), 4 and 5 waiting.
const list = (over: Partial<RegistrationsData> = {}): RegistrationsData => {
  const players: Player[] = [
    makePlayer(1, { status: 'confirmed', checked_in_at: inHours(-1) }),
    makePlayer(2, { status: 'confirmed' }),
    makePlayer(3, { status: 'confirmed' }),
    makePlayer(4, { status: 'waitlisted', waitlisted_at: '2026-01-02T00:00:00Z' }),
    makePlayer(5, { status: 'waitlisted', waitlisted_at: '2026-01-01T00:00:00Z', name: 'First Waiter' }),
  ]
  return {
    tournament: 'PPL7',
    count: players.length,
    seq: 9,
    players,
    cap: 3,
    confirmed: 3,
    waitlisted: 2,
    checked_in: 1,
    checkin: { opened_at: inHours(-2), deadline: inHours(2), closed_at: null },
    checkin_state: 'open',
    ...over,
  }
}

// A team of the matches phase: its five bought, 2,600 credits left.
const team = (id: string, captainId: number, over: Partial<LeagueTeam> = {}): LeagueTeam =>
  makeLeagueTeam(id, captainId, { purse_left: 2600, free_slots: 0, max_bid: 0, players: [], substitutes: [], ...over })

const auction = (status: AuctionView['status'], teams = [team('A', 3)]): AuctionView => ({
  tournament: 'PPL7',
  status,
  seq: 1,
  now: new Date().toISOString(),
  lot: null,
  sold: [],
  unsold: [],
  pool: [],
  teams,
  rules: { min_price: 1100, max_price: 2200, slots: 5, lot_seconds: 20, late_bid_seconds: 10, tier_prices: {}, tier_bands: [] },
})

const common = (status: AuctionView['status'], registrations = list()) => ({
  'GET /config': { body: { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' } },
  'GET /tournament/info': { body: { name: 'PPL7', status, registration_open: status === 'registration', count: registrations.count } },
  'GET /tournament/registrations': { body: registrations },
  'GET /tournaments/PPL7/auction': { body: auction(status) },
  'GET /tournaments/PPL7/teams': { body: { tournament: 'PPL7', teams: [team('A', 3)] } },
  'GET /tournament/teams': { body: { tournament: 'PPL7', teams: [] } },
  'GET /tournaments': { body: { tournaments: [{ name: 'PPL7', status, season: 7 }] } },
  'GET /tournaments/PPL7/captains/messages': { body: { tournament: 'PPL7', seq: 0, messages: [] } },
  'GET /admin/audit': { body: { entries: [], next: null, actions: [] } },
})

describe('the check-in on the tournament page', () => {
  it('shows the window, the confirmed players, then the waitlist in order, and checks the player in', async () => {
    const api = mockApi({
      ...common('registration'),
      'POST /tournament/checkin': { body: { success: true, registered: true, status: 'confirmed', checked_in_at: inHours(0), message: 'You are checked in for PPL7.' } },
    })
    at('/tournament?tab=reg', makeUser({ id: 2, tournament_registered: true }))
    expect(await screen.findByTestId('checkin-banner')).toHaveTextContent(/Check-in is open until .*: 1 of 3 confirmed players checked in/)
    expect(await screen.findByTestId('places-line')).toHaveTextContent('3 of 3 confirmed · 2 on the waitlist')
    const waiting = within(screen.getByTestId('waitlist-grid')).getAllByRole('listitem')
    expect(waiting.map((li) => li.dataset.playerId)).toEqual(['5', '4'])
    expect(waiting[0]).toHaveTextContent('Waitlist #1')
    expect(within(screen.getByTestId('player-grid')).getAllByRole('listitem')).toHaveLength(3)
    fireEvent.click(screen.getByRole('button', { name: 'Check in' }))
    await waitFor(() => expect(api.callsTo('POST', '/tournament/checkin')).toHaveLength(1))
    expect(api.callsTo('POST', '/tournament/checkin')[0].body).toEqual({ tournamentName: 'PPL7' })
  })

  it('tells a waiting player their place, and offers no check-in once the window closed', async () => {
    mockApi(common('registration', list({ checkin: { opened_at: inHours(-3), deadline: inHours(-1), closed_at: inHours(-1) }, checkin_state: 'closed' })))
    at('/tournament?tab=reg', makeUser({ id: 4, tournament_registered: true }))
    expect(await screen.findByTestId('own-waitlist')).toHaveTextContent('Waitlist · place 2')
    expect(screen.queryByRole('button', { name: /Check in/ })).not.toBeInTheDocument()
    expect(screen.getByTestId('checkin-banner')).toHaveTextContent(/Check-in closed .*: 3 confirmed, 2 on the waitlist/)
  })
})

describe('/admin: the registration card', () => {
  it('lists who has not checked in (captains keep their places) and the waitlist, and sets the cap', async () => {
    const api = mockApi({ ...common('registration'), 'PUT /admin/tournaments/PPL7/cap': { body: { places: {} } } })
    at('/admin', makeUser({ role: 'admin' }))
    const card = within(await screen.findByRole('region', { name: /Registration & check-in/ }))
    expect(await card.findByTestId('not-checked-in')).toHaveTextContent('Player 2')
    expect(card.getByTestId('not-checked-in')).not.toHaveTextContent('Player 3')
    const rows = within(card.getByTestId('waitlist-admin')).getAllByRole('listitem')
    expect(rows.map((li) => li.dataset.playerId)).toEqual(['5', '4'])
    // Full: a promotion waits for a higher cap.
    expect(card.getByRole('button', { name: 'Promote First Waiter' })).toBeDisabled()
    fireEvent.change(card.getByLabelText(/^Cap/), { target: { value: '4' } })
    fireEvent.click(card.getByRole('button', { name: 'Save cap' }))
    await waitFor(() => expect(api.callsTo('PUT', '/admin/tournaments/PPL7/cap')).toHaveLength(1))
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7/cap')[0].body).toEqual({ cap: 4 })
  })

  it('opens the check-in with a deadline and promotes a waiting player while there is a place', async () => {
    const api = mockApi({
      ...common('registration', list({ cap: 0, checkin: { opened_at: null, deadline: null, closed_at: null }, checkin_state: 'none' })),
      'PUT /admin/tournaments/PPL7/checkin': { body: { places: {} } },
      'POST /admin/tournaments/PPL7/waitlist/5/promote': { body: { entry: { registered: true, status: 'confirmed' } } },
    })
    at('/admin', makeUser({ role: 'admin' }))
    const card = within(await screen.findByRole('region', { name: /Registration & check-in/ }))
    expect(await card.findByTestId('admin-checkin')).toHaveTextContent('No check-in yet')
    fireEvent.change(card.getByLabelText('Deadline (your time zone)'), { target: { value: '2030-05-04T19:30' } })
    fireEvent.click(card.getByRole('button', { name: 'Open check-in' }))
    await waitFor(() => expect(api.callsTo('PUT', '/admin/tournaments/PPL7/checkin')).toHaveLength(1))
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7/checkin')[0].body).toEqual({ deadline: new Date('2030-05-04T19:30').toISOString() })
    // Each action of the card waits for the one before.
    const promoteFirst = card.getByRole('button', { name: 'Promote First Waiter' })
    await waitFor(() => expect(promoteFirst).toBeEnabled())
    fireEvent.click(promoteFirst)
    await waitFor(() => expect(api.callsTo('POST', '/admin/tournaments/PPL7/waitlist/5/promote')).toHaveLength(1))
  })
})

const matchesBase = {
  'GET /config': { body: { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' } },
  'GET /tournaments/PPL7/teams': {
    body: { tournament: 'PPL7', teams: [team('A', 11), team('H', 18)] },
  },
  'GET /tournaments': { body: { tournaments: [{ name: 'PPL7', status: 'matches', season: 7 }] } },
}

const bench = (over: Partial<Bench> = {}): Bench => ({
  tournament: 'PPL7',
  status: 'matches',
  seq: 3,
  max: 2,
  requests: [
    {
      id: 3,
      team: 'A',
      player: { user_id: 40, name: 'NeonFox', tier: 2, image: null, kd: 2.2, games_played: 800, level: 40 },
      price: 1400,
      status: 'pending',
      asked_at: inHours(-1),
      decided_at: null,
      reason: '',
    },
  ],
  pool: [
    { user_id: 41, name: 'ZeroKing', tier: 4, image: null, kd: 0.7, games_played: 90, level: 9, price: 1100 },
    { user_id: 42, name: 'BlazeStar', tier: 1, image: null, kd: 3, games_played: 900, level: 60, price: 1700 },
  ],
  ...over,
})

describe('match check-in and substitutes', () => {
  it('/admin/matches shows a side that did not check in, forfeited in one click, and answers the substitutes’ requests', async () => {
    const late: Match = makeMatch({ scheduled_at: inHours(-0.5), checked_in: { A: inHours(-1) }, checkin_opens_at: inHours(-1.5) })
    const api = mockApi({
      ...matchesBase,
      'GET /tournaments/PPL7/bracket': { body: { tournament: 'PPL7', format: 'single_elimination', rounds: [], champion: null } },
      'GET /tournaments/PPL7/matches': { body: { matches: [late] } },
      'GET /tournaments/PPL7/substitutes': { body: bench() },
      'POST /admin/matches/7/forfeit': { body: { match: { ...late, status: 'completed', winner: 'A', forfeit: true } } },
      'POST /admin/tournaments/PPL7/substitutes/3/refuse': { body: { request: { ...bench().requests[0], status: 'refused' } } },
    })
    at('/admin/matches', makeUser({ id: 1, role: 'admin' }))
    const row = within(await screen.findByRole('region', { name: 'Matches to play' }))
    expect(await row.findByText('Team H did not check in by the match’s time.')).toBeInTheDocument()
    fireEvent.click(row.getByRole('button', { name: 'Forfeit team H: no check-in' }))
    await waitFor(() => expect(api.callsTo('POST', '/admin/matches/7/forfeit')).toHaveLength(1))
    expect(api.callsTo('POST', '/admin/matches/7/forfeit')[0].body).toEqual({ team: 'H' })

    const subs = within(await screen.findByRole('region', { name: 'Substitutes' }))
    expect(await subs.findByText('Team A: NeonFox')).toBeInTheDocument()
    fireEvent.click(subs.getByRole('button', { name: 'Refuse' }))
    fireEvent.change(subs.getByLabelText('Why (the captain reads it)'), { target: { value: 'over the purse' } })
    fireEvent.click(subs.getByRole('button', { name: 'Refuse the request' }))
    await waitFor(() => expect(api.callsTo('POST', '/admin/tournaments/PPL7/substitutes/3/refuse')).toHaveLength(1))
    expect(api.callsTo('POST', '/admin/tournaments/PPL7/substitutes/3/refuse')[0].body).toEqual({ reason: 'over the purse' })
  })

  it('a captain checks their side in, in the hour before the match', async () => {
    const soon = makeMatch({ scheduled_at: inHours(0.5), checkin_opens_at: inHours(-0.5), checked_in: {} })
    const api = mockApi({
      ...matchesBase,
      'GET /matches/7': { body: { match: soon } },
      'POST /matches/7/checkin': { body: { match: { ...soon, checked_in: { A: new Date().toISOString() } } } },
    })
    at('/matches/7', makeUser({ id: 11, role: 'captain' }))
    const panel = within(await screen.findByRole('region', { name: 'Check-in' }))
    expect(panel.getByText(/Open until the match’s time/)).toBeInTheDocument()
    fireEvent.click(await panel.findByRole('button', { name: 'Check in team A' }))
    await waitFor(() => expect(api.callsTo('POST', '/matches/7/checkin')).toHaveLength(1))
    expect(await panel.findByText(/✓ checked in/)).toBeInTheDocument()
    expect(panel.queryByRole('button', { name: 'Check in team A' })).not.toBeInTheDocument()
  })

  it('a captain asks to sign a free player within the purse left, the dearer one not offered', async () => {
    const api = mockApi({
      ...common('matches'),
      'GET /tournaments/PPL7/auction': { body: auction('matches', [team('A', 3, { purse_left: 2600, substitutes: [] })]) },
      'GET /tournaments/PPL7/substitutes': { body: bench() },
      'POST /tournaments/PPL7/substitutes': { status: 201, body: { request: bench().requests[0] } },
      'GET /tournaments/PPL7/matches': { body: { matches: [] } },
    })
    at('/captain', makeUser({ id: 3, role: 'captain' }))
    const mine = within(await screen.findByRole('region', { name: 'Substitutes' }))
    // 2,600 left less the 1,400 asked for already: 1,200 to spend.
    expect(await mine.findByText(/1,200 cr to spend/)).toBeInTheDocument()
    expect(mine.getByRole('button', { name: 'Ask to sign BlazeStar' })).toBeDisabled()
    fireEvent.click(mine.getByRole('button', { name: 'Ask to sign ZeroKing' }))
    await waitFor(() => expect(api.callsTo('POST', '/tournaments/PPL7/substitutes')).toHaveLength(1))
    expect(api.callsTo('POST', '/tournaments/PPL7/substitutes')[0].body).toEqual({ userId: 41 })
  })
})
