import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { TournamentInfo, TournamentStatus } from '@/features/tournament/types'
import { LiveClient } from '@/lib/live-client'
import { LiveProvider } from '@/lib/live'
import { makeAuctionView, makeMatch, makeTournamentInfo } from '@/testing/league-fixtures'
import { makePlayer, makeUser } from '@/testing/fixtures'
import { mockApi, type MockRoute } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { OPEN_AUTH_MODAL, OPEN_STATS_UPLOAD } from '@/lib/window-events'
import HomeRoute from './home'
// The phases' panel loads lazily in the app; imported here up front, a busy machine does not time
// out the first test of each while its chunk compiles.
import '../home/season-now'

const info = makeTournamentInfo

const api = (status: TournamentStatus = 'registration', extra: Record<string, MockRoute> = {}, over: Partial<TournamentInfo> = {}) =>
  mockApi({
    'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
    'GET /tournament/teams': { body: { tournament: 'PPL7', teams: [] } },
    'GET /tournament/info': { body: info(status, over) },
    ...extra,
  })

const inAnHour = new Date(Date.now() + 3_600_000).toISOString()
const auction = makeAuctionView

/** The home page's REGISTER, or its closed twin: neither may show outside registration. */
const registerButtons = () => screen.queryAllByRole('button', { name: /^REGISTER$|Registration closed/ })

describe('home page', () => {
  it("shows the season's hero, its display name and the anchors", async () => {
    api()
    renderApp(<HomeRoute />)
    expect(await screen.findByRole('heading', { level: 1, name: 'PPLS-6.0 is back' })).toBeInTheDocument()
    expect(screen.getByText('Smash Karts community league · PPLS-6.0')).toBeInTheDocument()
    for (const id of ['home', 'tournament', 'news', 'help', 'privacy', 'terms']) expect(document.getElementById(id)).not.toBeNull()
    expect(await screen.findByText('No players registered yet.')).toBeInTheDocument()
  })

  it('REGISTER opens the auth modal in register mode', async () => {
    api()
    const seen = vi.fn()
    window.addEventListener(OPEN_AUTH_MODAL, seen)
    renderApp(<HomeRoute />)
    act(() => screen.getByRole('button', { name: 'REGISTER' }).click())
    expect((seen.mock.calls[0][0] as CustomEvent).detail).toEqual({ mode: 'register' })
    window.removeEventListener(OPEN_AUTH_MODAL, seen)
  })

  it('?showStatsUpload=true fires openStatsUpload and clears the query without a reload', async () => {
    api()
    const replace = vi.spyOn(window.history, 'replaceState')
    const seen = vi.fn()
    window.addEventListener(OPEN_STATS_UPLOAD, seen)
    renderApp(<HomeRoute />, { route: '/?showStatsUpload=true#news' })
    await waitFor(() => expect(seen).toHaveBeenCalledTimes(1))
    expect(replace).toHaveBeenLastCalledWith(null, '', '/#news')
    expect(window.location.search).toBe('')
    expect(window.location.hash).toBe('#news')
    window.removeEventListener(OPEN_STATS_UPLOAD, seen)
  })

  it('does nothing for other values', async () => {
    api()
    const seen = vi.fn()
    window.addEventListener(OPEN_STATS_UPLOAD, seen)
    renderApp(<HomeRoute />, { route: '/?showStatsUpload=false' })
    // Once the page has its data (waited for inside act), the event has had every chance to fire.
    await screen.findByText('No players registered yet.')
    expect(seen).not.toHaveBeenCalled()
    expect(window.location.search).toBe('?showStatsUpload=false')
    window.removeEventListener(OPEN_STATS_UPLOAD, seen)
    window.history.replaceState(null, '', '/')
  })
})

describe("the home page follows the season's phase", () => {
  it('while registering: REGISTER, the stats upload, the line that invites players, the dates', async () => {
    api('registration', {}, { starts_at: '2026-12-01', ends_at: '2026-12-20' })
    renderApp(<HomeRoute />)
    expect(await screen.findByText(/get drafted by a captain/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'REGISTER' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Upload SK stats' })).toBeInTheDocument()
    expect(await screen.findByText(/1 Dec 2026 – 20 Dec 2026/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /Watch the live auction/ })).not.toBeInTheDocument()
  })

  it('during the auction: the lot under the hammer and the way to /auction, no REGISTER', async () => {
    api('auction', { 'GET /tournaments/PPL7/auction': { body: auction() } })
    renderApp(<HomeRoute />)
    const lot = await screen.findByTestId('home-lot')
    expect(lot).toHaveTextContent('Lot live')
    expect(lot).toHaveTextContent('FrostSpark is under the hammer')
    expect(lot).toHaveTextContent('Team B leads with 1,500')
    expect(screen.getByRole('link', { name: /Watch the live auction/ })).toHaveAttribute('href', '/auction')
    expect(screen.getByText(/captains are building their teams in a live auction/)).toBeInTheDocument()
    expect(registerButtons()).toHaveLength(0)
    expect(screen.queryByText(/get drafted/)).not.toBeInTheDocument()
  })

  it('between lots: what has been sold and what is left', async () => {
    api('auction', { 'GET /tournaments/PPL7/auction': { body: auction({ lot: null }) } })
    renderApp(<HomeRoute />)
    expect(await screen.findByTestId('home-lot')).toHaveTextContent('No lot open right now: 0 players sold, 1 still in the pool.')
  })

  it('during the matches: the bracket, the Points Table and the next matches with their times, no REGISTER', async () => {
    const tonight = new Date(Date.now() + 2 * 3_600_000).toISOString()
    api('matches', {
      'GET /tournaments/PPL7/matches': {
        body: {
          matches: [
            makeMatch({ id: 3, scheduled_at: tonight, team1: { id: 'C', name: 'Team C' }, team2: { id: 'F', name: 'Blaze' } }),
            makeMatch({ id: 4, scheduled_at: null, team1: { id: 'B', name: 'Team B' }, team2: { id: 'G', name: 'Team G' } }),
            makeMatch({ id: 1, status: 'completed', winner: 'A' }),
          ],
        },
      },
    })
    renderApp(<HomeRoute />)
    expect(await screen.findByRole('link', { name: 'The bracket' })).toHaveAttribute('href', '/tournament?tab=bracket')
    expect(screen.getByRole('link', { name: 'Points Table' })).toHaveAttribute('href', '/tournament?tab=points')
    const next = await screen.findByRole('region', { name: 'Next matches' })
    const items = within(next).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('Team C vs Team F · Blaze')
    expect(items[0]).toHaveTextContent('(in 2 h)')
    expect(within(items[0]).getByRole('link')).toHaveAttribute('href', '/matches/3')
    expect(items[1]).toHaveTextContent('time to be agreed')
    expect(registerButtons()).toHaveLength(0)
    expect(screen.getByRole('heading', { name: 'PPLS-6.0: the matches are on' })).toBeInTheDocument()
  })

  it('when the season is over: the champion with its captain and players, the Red Cap, and the way to the season', async () => {
    api('completed', {
      'GET /tournaments/PPL7/bracket': {
        body: { tournament: 'PPL7', format: 'single_elimination', seq: 9, seeds: [], seeded_by: '', rounds: [], champion: { id: 'H', name: 'Thunder' } },
      },
      'GET /tournaments/PPL7/teams': {
        body: {
          tournament: 'PPL7',
          teams: [{ id: 'H', name: 'Thunder', captain: { user_id: 18, name: 'Hex', image: null }, players: [{ user_id: 19, name: 'Volt', image: null }] }],
        },
      },
      'GET /tournaments/PPL7/red-cap': {
        body: { tournament: 'PPL7', seq: 9, rows: [{ user_id: 19, name: 'Volt', team: 'H', team_name: 'Thunder', kills: 88, deaths: 20, matches: 3 }] },
      },
    })
    renderApp(<HomeRoute />)
    const champion = await screen.findByTestId('home-champion')
    expect(within(champion).getByRole('heading', { name: 'Team H · Thunder' })).toBeInTheDocument()
    expect(champion).toHaveTextContent('Captain Hex')
    expect(within(champion).getByRole('list', { name: 'Players' })).toHaveTextContent('Volt')
    const cap = await screen.findByTestId('home-redcap')
    expect(cap).toHaveTextContent('Volt')
    expect(cap).toHaveTextContent('88 kills in 3 matches · Thunder')
    expect(screen.getByRole('link', { name: 'See the season' })).toHaveAttribute('href', '/tournament?season=PPL7&tab=bracket')
    expect(registerButtons()).toHaveLength(0)
  })

  it("a season's description stands under its hero in every phase, and its banner behind it", async () => {
    api('matches', { 'GET /tournaments/PPL7/matches': { body: { matches: [] } } }, {
      description: 'Eight teams, one night.',
      banner_url: '/api/images/abc',
    })
    renderApp(<HomeRoute />)
    expect(await screen.findByText('Eight teams, one night.')).toBeInTheDocument()
    expect(screen.queryByText(/the matches are on: follow the bracket/)).not.toBeInTheDocument()
    expect(document.querySelector('#home.hero.has-banner img.hero-banner')).toHaveAttribute('src', '/api/images/abc')
    expect(await screen.findByText(/The fixtures are on their way/)).toBeInTheDocument()
  })

  it('changes phase and identity live, without a reload', async () => {
    // The server's summary as it stands: every event below changed it first, as on the server.
    let now = info('registration')
    mockApi({
      'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
      'GET /tournament/teams': { body: { tournament: 'PPL7', teams: [] } },
      'GET /tournament/info': () => ({ body: now }),
      'GET /tournaments/PPL7/matches': { body: { matches: [makeMatch({ id: 5, scheduled_at: inAnHour })] } },
    })
    const client = new LiveClient()
    renderApp(
      <LiveProvider enabled={false} client={client}>
        <HomeRoute />
      </LiveProvider>,
    )
    expect(await screen.findByRole('heading', { level: 1, name: 'PPLS-6.0 is back' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'REGISTER' })).toBeInTheDocument()
    act(() => client.open(() => undefined, null))
    const push = (seq: number, event: string, data: Partial<TournamentInfo>) => {
      now = { ...now, ...data }
      act(() => client.handleFrame(JSON.stringify({ type: 'event', topic: 'registrations', seq, event, data: { tournament: 'PPL7', ...data } })))
    }
    push(1, 'tournament.updated', { display_name: 'PPL Season 7', hero: 'Seven is here', hero_default: false, description: '' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Seven is here' })).toBeInTheDocument()
    expect(screen.getByText('Smash Karts community league · PPL Season 7')).toBeInTheDocument()
    push(2, 'tournament.status', { status: 'matches', registration_open: false })
    expect(await screen.findByRole('link', { name: 'The bracket' })).toBeInTheDocument()
    expect(registerButtons()).toHaveLength(0)
    expect(await screen.findByRole('region', { name: 'Next matches' })).toHaveTextContent('Team A vs Team H · Thunder')
    expect(screen.getByRole('heading', { level: 1, name: 'Seven is here' })).toBeInTheDocument()
  })
})

describe("the home page's first screen says what is happening, and the visitor's own next step", () => {
  const tile = (id: string) => screen.findByTestId(id)

  it('while registering: the newest players, what comes next, and a newcomer’s step', async () => {
    api('registration', {
      'GET /tournament/registrations': {
        body: { tournament: 'PPL7', count: 40, seq: 0, players: [makePlayer(1, { name: 'Oldest' }), makePlayer(2, { name: 'Zoom' }), makePlayer(3, { name: 'Newest' })] },
      },
    })
    renderApp(<HomeRoute />)
    const newest = await tile('now-newest')
    expect(newest).toHaveTextContent('Just registered')
    expect(newest).toHaveTextContent('Newest, Zoom, Oldest and 37 more')
    expect(await tile('now-next')).toHaveTextContent('The auction: once registration closes')
    const step = await tile('now-step')
    expect(step).toHaveTextContent('New here?')
    expect(within(step).getByRole('button', { name: 'Sign Up' })).toBeInTheDocument()
  })

  it('while registering, a player with stats is asked to register', async () => {
    api('registration')
    renderApp(<HomeRoute />, { user: makeUser({ sk_stats_uploaded: true, stats_data: { kd: 2, games_played: 10 } as never }) })
    const step = await tile('now-step')
    expect(step).toHaveTextContent('Your stats are saved: register for PPLS-6.0.')
    expect(within(step).getByRole('button', { name: 'REGISTER' })).toBeInTheDocument()
  })

  it('during the auction: the latest sale, and the player bought says so', async () => {
    const sold = [
      { lot_id: 1, player: { user_id: 7, name: 'Rider' }, team: 'B', price: 1800, at: '2026-12-01T20:05:00Z' },
      { lot_id: 2, player: { user_id: 30, name: 'FrostSpark' }, team: 'A', price: 2100, at: '2026-12-01T20:09:00Z' },
    ] as never
    api('auction', { 'GET /tournaments/PPL7/auction': { body: auction({ sold }) } })
    renderApp(<HomeRoute />, { user: makeUser({ sk_stats_uploaded: true, tournament_registered: true, stats_data: { kd: 2, games_played: 10 } as never }) })
    expect(await tile('now-sale')).toHaveTextContent('Latest saleFrostSpark to Team A for 2,100 cr')
    expect(await tile('now-step')).toHaveTextContent('Team B bought you in the auction.')
    expect(registerButtons()).toHaveLength(0)
  })

  it('during the matches: the latest result, and a player’s own next match with its time', async () => {
    const tonight = new Date(Date.now() + 2 * 3_600_000).toISOString()
    api('matches', {
      'GET /tournaments/PPL7/matches': {
        body: {
          matches: [
            makeMatch({ id: 3, scheduled_at: tonight, team1: { id: 'C', name: 'Team C' }, team2: { id: 'F', name: 'Blaze' }, members: { C: [], F: [] } }),
            makeMatch({ id: 4, scheduled_at: null, team1: { id: 'A', name: 'Team A' }, team2: { id: 'G', name: 'Team G' } }),
            makeMatch({
              id: 1,
              status: 'completed',
              winner: 'H',
              reported_at: '2026-12-01T21:00:00Z',
              report: {
                winner: 'H',
                players: [
                  { user_id: 11, team: 'A', kills: 30, deaths: 40, placement: 5 },
                  { user_id: 21, team: 'H', kills: 45, deaths: 20, placement: 1 },
                ],
              },
            }),
          ],
        },
      },
    })
    // Ace (user 11) plays for Team A: their next match is the one against Team G.
    renderApp(<HomeRoute />, { user: makeUser({ id: 11, sk_stats_uploaded: true, tournament_registered: true, stats_data: { kd: 2, games_played: 10 } as never }) })
    const result = await tile('now-result')
    expect(result).toHaveTextContent('Team H · Thunder beat Team A · 45–30 kills')
    expect(within(result).getByRole('link')).toHaveAttribute('href', '/matches/1')
    const step = await tile('now-step')
    expect(step).toHaveTextContent('Your next match')
    expect(step).toHaveTextContent('Team A vs Team G · time to be agreed')
    expect(within(step).getByRole('link', { name: 'Open the match' })).toHaveAttribute('href', '/matches/4')
  })

  it('during the matches, a newcomer is not led to a registration the server refuses', async () => {
    api('matches', { 'GET /tournaments/PPL7/matches': { body: { matches: [] } } })
    renderApp(<HomeRoute />)
    const step = await tile('now-step')
    expect(step).toHaveTextContent('Registration for PPLS-6.0 is closed. Sign up now: your stats are ready when the next season opens.')
    expect(registerButtons()).toHaveLength(0)
  })
})

describe('back from Link Discord', () => {
  it('?discord=linked keeps the outcome, clears the query and opens the profile', async () => {
    api()
    const seen = vi.fn()
    window.addEventListener(OPEN_AUTH_MODAL, seen)
    renderApp(<HomeRoute />, { route: '/?discord=linked&message=Discord+account+linked+and+verified%21' })
    await waitFor(() => expect(seen).toHaveBeenCalledTimes(1))
    expect((seen.mock.calls[0][0] as CustomEvent).detail).toEqual({ mode: 'login' })
    expect(window.location.search).toBe('')
    expect(window.sessionStorage.getItem('pitlane.discordOutcome')).toContain('linked and verified')
    window.removeEventListener(OPEN_AUTH_MODAL, seen)
    window.sessionStorage.clear()
  })
})
