import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { makeAuctionView, makeLot } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { AuctionView } from '@/features/auction/types'
import type { User } from '@/lib/auth'
import { AppRoutes } from '../router'
// The routes load lazily in the app; imported here up front, a busy machine does not time out the
// first test of each while its chunk compiles.
import './admin'
import './auction'
import './captain'

const at = (route: string, user: User | null = null) => renderApp(<AppRoutes />, { route, user })

const zeroKing = { user_id: 31, name: 'ZeroKing', tier: 4, image: null, kd: 0.7, games_played: 90, level: 9 }
const auction = (over: Partial<AuctionView> = {}): AuctionView =>
  makeAuctionView({
    lot: makeLot({
      bids: [
        { team: 'A', amount: 1400, at: new Date().toISOString() },
        { team: 'B', amount: 1500, at: new Date().toISOString() },
      ],
    }),
    sold: [{ lot_id: 1, player: { user_id: 101, name: 'Bought A1', tier: 1, image: null, kd: 3, games_played: 900, level: 50 }, team: 'A', price: 2200, at: 'x' }],
    unsold: [{ lot_id: 2, player: zeroKing, at: 'x' }],
    pool: [zeroKing, { user_id: 32, name: 'NeonFox', tier: 2, image: null, kd: 2.2, games_played: 800, level: 40 }],
    rules: {
      min_price: 1100,
      max_price: 2200,
      slots: 5,
      lot_seconds: 20,
      late_bid_seconds: 10,
      tier_prices: { '2': { base_price: 1400, increment: 100 }, '4': { base_price: 1100, increment: 50 } },
      tier_bands: [],
    },
    ...over,
  })

const routes = (view: AuctionView = auction()) => ({
  'GET /config': { body: { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' } },
  'GET /tournament/info': { body: { name: 'PPL7', status: view.status, registration_open: view.status === 'registration', count: 60 } },
  'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
  'GET /tournaments/PPL7/auction': { body: view },
  'GET /admin/tournaments/PPL7/status': {
    body: {
      tournament: 'PPL7',
      status: view.status,
      moves: [
        { to: 'registration', back: true, allowed: false, force: false, refusals: ['players were bought already: void the sales first'], warnings: [] },
        { to: 'matches', back: false, allowed: true, force: true, refusals: [], warnings: ['Team A has 3 of 5 slots empty', 'Team B has 2 of 5 slots empty'] },
      ],
    },
  },
  'GET /tournaments/PPL7/captains/messages': {
    body: { tournament: 'PPL7', seq: 3, messages: [{ id: 1, author: 'Cap B', user_id: 3, role: 'captain', team: 'B', text: 'Good luck all', at: new Date().toISOString() }] },
  },
  'GET /admin/audit': {
    body: {
      entries: [
        { id: 1, at: new Date().toISOString(), actor: { user_id: 1, name: 'league.organiser', discord_verified: true }, action: 'auction.open_lot', target: 'FrostSpark', data: { lot: 7, base_price: 1400 } },
      ],
      next: null,
      actions: ['auction.open_lot'],
    },
  },
})

describe('/auction', () => {
  it('shows the lot with its high bid and bids, every team’s purse and roster, and the sold and unsold lists', async () => {
    mockApi(routes())
    at('/auction')
    expect(await screen.findByTestId('lot-player')).toHaveTextContent('FrostSpark')
    expect(screen.getByTestId('high-bid')).toHaveTextContent('1,500 cr')
    expect(within(screen.getByRole('list', { name: 'Bids, newest first' })).getAllByRole('listitem')[0]).toHaveTextContent('Team B')
    expect(screen.getByTestId('purse-A')).toHaveTextContent('7,600 cr')
    expect(screen.getByTestId('roster-B')).toHaveTextContent('Bought B1')
    expect(screen.getByTestId('sold-list')).toHaveTextContent('Bought A1')
    expect(screen.getByTestId('unsold-list')).toHaveTextContent('ZeroKing')
    expect(screen.getByTestId('phase')).toHaveTextContent('Auction under way')
  })

  it('says when no lot is open', async () => {
    mockApi(routes(auction({ lot: null, status: 'registration' })))
    at('/auction')
    // The skeleton says it first, then the board, rendered in the background, in its place.
    await waitFor(() => expect(screen.getByText(/The auction starts when registration closes/)).toBeInTheDocument())
  })
})

describe('/captain', () => {
  it('offers the allowed next bids and places one', async () => {
    const api = mockApi({ ...routes(), 'POST /tournaments/PPL7/auction/bids': { body: { lot: auction().lot } } })
    at('/captain', makeUser({ id: 2, role: 'captain', name: 'Cap A' }))
    expect(await screen.findByRole('heading', { name: /Team A · PPL7/ })).toBeInTheDocument()
    const buttons = screen.getAllByRole('button', { name: /^Bid / })
    expect(buttons.map((b) => b.textContent)).toEqual(['Bid 1,600 cr', 'Bid 1,700 cr', 'Bid 1,800 cr', 'Bid 1,900 cr'])
    fireEvent.click(buttons[0])
    expect(await screen.findByText('Bid placed: 1,600 cr for Team A.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/tournaments/PPL7/auction/bids')[0].body).toEqual({ lotId: 7, amount: 1600 })
  })

  it('shows a refusal of the server in plain words', async () => {
    mockApi({
      ...routes(),
      'POST /tournaments/PPL7/auction/bids': { status: 409, body: { message: 'Outbid: the high bid is now 1700 by Team B.' } },
    })
    at('/captain', makeUser({ id: 2, role: 'captain' }))
    fireEvent.click((await screen.findAllByRole('button', { name: /^Bid / }))[0])
    expect(await screen.findByRole('alert')).toHaveTextContent('Too late: Outbid: the high bid is now 1700 by Team B.')
  })

  it('disables the bid buttons of the leading team, and shows the captains room with its history', async () => {
    mockApi(routes())
    at('/captain', makeUser({ id: 3, role: 'captain' }))
    expect(await screen.findByText('Team B holds the high bid. Wait for another team to outbid you.')).toBeInTheDocument()
    for (const b of screen.getAllByRole('button', { name: /^Bid / })) expect(b).toBeDisabled()
    expect(await screen.findByText('Good luck all')).toBeInTheDocument()
  })

  it('tells the room’s rate limit in the server’s words', async () => {
    mockApi({
      ...routes(),
      'POST /tournaments/PPL7/captains/messages': {
        status: 429,
        body: { message: 'Slow down: at most 5 messages every 10 seconds.' },
        headers: { 'Retry-After': '4' },
      },
    })
    at('/captain', makeUser({ id: 2, role: 'captain' }))
    fireEvent.change(await screen.findByLabelText('Message to the captains'), { target: { value: 'hello' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Slow down: at most 5 messages every 10 seconds. (wait 4 s)')).toBeInTheDocument()
  })

  it('asks a signed-out visitor to sign in as captain', async () => {
    mockApi(routes())
    at('/captain')
    expect(await screen.findByText('Captains sign in to bid.')).toBeInTheDocument()
  })
})

describe('/admin', () => {
  it('is for organisers only', async () => {
    mockApi(routes())
    at('/admin', makeUser({ role: 'captain' }))
    expect(await screen.findByText('Organisers only.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Player queue' })).not.toBeInTheDocument()
  })

  it('shows the phase, the queue by tier, the sales, the captains and the audit log, with a link to the matches', async () => {
    mockApi(routes(auction({ lot: null })))
    at('/admin', makeUser({ role: 'admin' }))
    expect(await screen.findByRole('heading', { name: 'Player queue' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Matches' })).toHaveAttribute('href', '/admin/matches')
    expect(screen.getByRole('heading', { name: /^Tier 2/ })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: /^Tier 4/ })).toBeInTheDocument()
    expect(screen.getByText('Unsold')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Void' })).toBeInTheDocument()
    expect(await screen.findByTestId('audit-list')).toHaveTextContent('auction.open_lot')
    expect(screen.getByRole('button', { name: 'Move to matches' })).toBeInTheDocument()
  })

  it('lists what moving on leaves incomplete and offers "Move anyway", which forces it; a refused move is no button, only why', async () => {
    const api = mockApi({ ...routes(auction({ lot: null })), 'POST /admin/tournaments/PPL7/status': { body: { name: 'PPL7', status: 'matches' } } })
    at('/admin', makeUser({ role: 'admin' }))
    expect(await screen.findByTestId('phase-refused-registration')).toHaveTextContent('Back to registration: not now. Players were bought already')
    expect(screen.queryByRole('button', { name: 'Back to registration' })).not.toBeInTheDocument()
    expect(screen.getByTestId('phase-warnings-matches')).toHaveTextContent('2 things incomplete')
    fireEvent.click(screen.getByRole('button', { name: 'Move to matches' }))
    const box = screen.getByRole('group', { name: 'Move PPL7 to its matches phase?' })
    expect(within(box).getByText('Team A has 3 of 5 slots empty')).toBeInTheDocument()
    expect(within(box).queryByRole('button', { name: 'Yes, matches' })).not.toBeInTheDocument()
    fireEvent.click(within(box).getByRole('button', { name: 'Move anyway' }))
    await waitFor(() => expect(api.callsTo('POST', '/admin/tournaments/PPL7/status')).toHaveLength(1))
    expect(api.callsTo('POST', '/admin/tournaments/PPL7/status')[0].body).toEqual({ status: 'matches', force: true })
  })

  it('opens a lot at the tier’s base price', async () => {
    const api = mockApi({ ...routes(auction({ lot: null })), 'POST /admin/tournaments/PPL7/auction/lots': { status: 201, body: { lot: auction().lot } } })
    at('/admin', makeUser({ role: 'admin' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Put up NeonFox' }))
    expect(screen.getByLabelText('Base price')).toHaveValue(1400)
    fireEvent.click(screen.getByRole('button', { name: 'Open lot' }))
    await waitFor(() => expect(api.callsTo('POST', '/admin/tournaments/PPL7/auction/lots')).toHaveLength(1))
    expect(api.callsTo('POST', '/admin/tournaments/PPL7/auction/lots')[0].body).toEqual({ userId: 32, basePrice: 1400 })
  })
})
