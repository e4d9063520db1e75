import { describe, expect, it } from 'vitest'
import type { LiveEvent } from '@/lib/live-client'
import type { AuctionView, LeagueTeam, Lot, PlayerRef } from '../types'
import { applyAuctionEvent, bidsNewestFirst, replayAuctionEvents } from './auction-reducer'

const player = (id: number, tier = 2, name = `P${id}`): PlayerRef => ({ user_id: id, name, tier, image: null, kd: 2, games_played: 300, level: 30 })
const team = (id: string, over: Partial<LeagueTeam> = {}): LeagueTeam => ({
  id,
  name: `Team ${id}`,
  logo: '',
  captain: { user_id: id.charCodeAt(0), name: `Cap ${id}`, image: null },
  purse: 12_000,
  purse_left: 12_000,
  slots: 5,
  free_slots: 5,
  max_bid: 2200,
  players: [],
  ...over,
})
const lot = (id: number, p: PlayerRef, over: Partial<Lot> = {}): Lot => ({
  id,
  player: p,
  base_price: 1400,
  increment: 100,
  status: 'open',
  high_bid: null,
  ends_at: '2026-01-01T12:00:20Z',
  opened_at: '2026-01-01T12:00:00Z',
  closed_at: null,
  bids: [],
  ...over,
})
const view = (over: Partial<AuctionView> = {}): AuctionView => ({
  tournament: 'PPL7',
  status: 'auction',
  seq: 10,
  now: '2026-01-01T12:00:00Z',
  lot: null,
  sold: [],
  unsold: [],
  pool: [player(1, 1, 'Ace'), player(2, 2, 'Bo'), player(3, 2, 'Cy')],
  teams: [team('A'), team('B')],
  rules: { min_price: 1100, max_price: 2200, slots: 5, lot_seconds: 20, late_bid_seconds: 10, tier_prices: {}, tier_bands: [] },
  ...over,
})
const ev = (seq: number, event: string, data: unknown): LiveEvent => ({ type: 'event', topic: 'teams', seq, event, data, ts: '2026-01-01T12:00:01Z' })

describe('applyAuctionEvent', () => {
  it('auction.lot puts the player under the hammer and out of the pool', () => {
    const l = lot(5, player(2, 2, 'Bo'))
    const { view: v, refetch } = applyAuctionEvent(view(), ev(11, 'auction.lot', { tournament: 'PPL7', lot: l }))
    expect(v.lot?.id).toBe(5)
    expect(v.pool.map((p) => p.user_id)).toEqual([1, 3])
    expect(v.seq).toBe(11)
    expect(refetch).toBe(false)
  })

  it('auction.bid adds the bid to the open lot, with its new high bid and deadline', () => {
    const open = lot(5, player(2))
    const news = { lot_id: 5, bid: { team: 'A', amount: 1400, at: 'x' }, high_bid: { team: 'A', amount: 1400 }, ends_at: '2026-11-25T20:00:10Z' }
    const { view: v, refetch } = applyAuctionEvent(view({ lot: open }), ev(11, 'auction.bid', news))
    expect(v.lot?.high_bid).toEqual({ team: 'A', amount: 1400 })
    expect(v.lot?.ends_at).toBe('2026-11-25T20:00:10Z')
    expect(bidsNewestFirst(v.lot)).toHaveLength(1)
    expect(refetch).toBe(false)
    const again = applyAuctionEvent(v, ev(12, 'auction.bid', { ...news, bid: { team: 'B', amount: 1500, at: 'y' }, high_bid: { team: 'B', amount: 1500 } })).view
    expect(bidsNewestFirst(again.lot).map((b) => b.amount)).toEqual([1500, 1400])
  })

  it('a bid on a lot the view does not hold asks for a fresh read', () => {
    const news = { lot_id: 6, bid: { team: 'A', amount: 1400, at: 'x' }, high_bid: { team: 'A', amount: 1400 }, ends_at: 'x' }
    expect(applyAuctionEvent(view({ lot: lot(5, player(2)) }), ev(11, 'auction.bid', news)).refetch).toBe(true)
    expect(applyAuctionEvent(view(), ev(11, 'auction.bid', news)).refetch).toBe(true)
  })

  it('auction.sold ends the lot and lists the sale; team.updated brings the new purse and roster', () => {
    const sold = lot(5, player(2), { status: 'sold', high_bid: { team: 'A', amount: 1600 } })
    const sale = { lot_id: 5, player: player(2), team: 'A', price: 1600, at: 'x' }
    let v = applyAuctionEvent(view({ lot: lot(5, player(2)), pool: [player(1), player(3)] }), ev(11, 'auction.sold', { lot: sold, sale })).view
    expect(v.lot).toBeNull()
    expect(v.sold).toEqual([sale])
    const a = team('A', { purse_left: 10_400, free_slots: 4, players: [{ user_id: 2, name: 'P2', image: null, price: 1600, tier: 2 }] })
    const r = applyAuctionEvent(v, ev(12, 'team.updated', { team: a }))
    v = r.view
    expect(r.refetch).toBe(false)
    expect(v.teams.find((t) => t.id === 'A')?.purse_left).toBe(10_400)
    expect(v.teams.find((t) => t.id === 'B')?.purse_left).toBe(12_000)
  })

  it('auction.unsold ends the lot, lists the player unsold and returns them to the pool, in tier order', () => {
    const l = lot(5, player(2, 2, 'Bo'), { status: 'unsold' })
    const { view: v } = applyAuctionEvent(view({ lot: lot(5, player(2, 2, 'Bo')), pool: [player(1, 1, 'Ace'), player(3, 2, 'Cy')] }), ev(11, 'auction.unsold', { lot: l }))
    expect(v.lot).toBeNull()
    expect(v.unsold.map((u) => u.player.user_id)).toEqual([2])
    expect(v.pool.map((p) => p.name)).toEqual(['Ace', 'Bo', 'Cy'])
  })

  it('a player put up again leaves the unsold list', () => {
    const unsold = [{ lot_id: 4, player: player(2), at: 'x' }]
    const { view: v } = applyAuctionEvent(view({ unsold }), ev(11, 'auction.lot', { lot: lot(6, player(2)) }))
    expect(v.unsold).toEqual([])
  })

  it('auction.voided takes the sale back and the player returns to the pool', () => {
    const sold = [{ lot_id: 5, player: player(9, 3, 'Zed'), team: 'A', price: 1600, at: 'x' }]
    const { view: v } = applyAuctionEvent(view({ sold }), ev(11, 'auction.voided', { lot: lot(5, player(9, 3, 'Zed'), { status: 'voided' }) }))
    expect(v.sold).toEqual([])
    expect(v.pool.map((p) => p.name)).toContain('Zed')
  })

  it('a new captain asks for a fresh read (the pool changes in ways the event does not say)', () => {
    const b = team('B', { captain: { user_id: 3, name: 'Cy', image: null } })
    expect(applyAuctionEvent(view(), ev(11, 'team.updated', { team: b })).refetch).toBe(true)
  })

  it('auction.paused stops the open lot’s clock at its time left, auction.resumed gives it its new deadline', () => {
    const open = lot(5, player(2))
    const flow = { paused: true, paused_at: 'x', turn_seconds: 0, turn: '', turn_ends_at: null, turn_left_ms: null }
    const paused = applyAuctionEvent(view({ lot: open }), ev(11, 'auction.paused', { flow, lot: { ...open, paused_left_ms: 12_000 } })).view
    expect(paused.flow?.paused).toBe(true)
    expect(paused.lot?.paused_left_ms).toBe(12_000)
    const resumed = applyAuctionEvent(paused, ev(12, 'auction.resumed', { flow: { ...flow, paused: false }, lot: { ...open, ends_at: '2026-01-01T12:05:12Z', paused_left_ms: null } })).view
    expect(resumed.flow?.paused).toBe(false)
    expect(resumed.lot?.paused_left_ms).toBeNull()
    expect(resumed.lot?.ends_at).toBe('2026-01-01T12:05:12Z')
  })

  it('auction.turn tells whose turn it is to nominate', () => {
    const flow = { paused: false, paused_at: null, turn_seconds: 30, turn: 'B', turn_ends_at: '2026-01-01T12:00:30Z', turn_left_ms: null }
    const { view: v, refetch } = applyAuctionEvent(view(), ev(11, 'auction.turn', { tournament: 'PPL7', flow }))
    expect(v.flow?.turn).toBe('B')
    expect(refetch).toBe(false)
  })

  it('ignores events already in the view, and other tournaments’ events', () => {
    const v = view()
    expect(applyAuctionEvent(v, ev(10, 'auction.lot', { lot: lot(5, player(2)) })).view).toBe(v)
    const other = applyAuctionEvent(v, ev(11, 'auction.lot', { tournament: 'PPL8', lot: lot(5, player(2)) })).view
    expect(other.lot).toBeNull()
    expect(other.seq).toBe(11)
  })

  it('replays events received while the view was read, in order', () => {
    const l = lot(5, player(2))
    const bid = { lot_id: 5, bid: { team: 'B', amount: 1500, at: 'x' }, high_bid: { team: 'B', amount: 1500 }, ends_at: 'x' }
    const v = replayAuctionEvents(view(), [ev(9, 'auction.lot', { lot: lot(1, player(1)) }), ev(11, 'auction.lot', { lot: l }), ev(12, 'auction.bid', bid)])
    expect(v.lot?.high_bid?.amount).toBe(1500)
    expect(v.seq).toBe(12)
  })
})
