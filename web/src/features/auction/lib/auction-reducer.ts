// Live events of topic `teams` applied to the cached auction view (GET .../auction): pure, so
// each event is tested without a socket. Events at or below the view's seq are already in it.
import type { LiveEvent } from '@/lib/live-client'
import type { AuctionFlow, AuctionView, Bid, HighBid, LeagueTeam, Lot, PlayerRef, Sale } from '../types'

type TeamsEventData = {
  tournament?: string
  lot?: Lot
  sale?: Sale
  team?: LeagueTeam
  // auction.bid tells only the bid and what it changed of its lot.
  lot_id?: number
  bid?: Bid
  high_bid?: HighBid
  ends_at?: string
  // auction.paused, auction.resumed, auction.turn: the flow, and the open lot (or null).
  flow?: AuctionFlow
}

/** The result of an event: the next view, and whether it needs a fresh read to be whole. */
export type Applied = { view: AuctionView; refetch: boolean }

const byTierName = (a: PlayerRef, b: PlayerRef) => a.tier - b.tier || a.name.localeCompare(b.name) || a.user_id - b.user_id

function withoutPlayer<T extends { player: PlayerRef }>(list: T[], userId: number): T[] {
  const next = list.filter((x) => x.player.user_id !== userId)
  return next.length === list.length ? list : next
}

function poolWithout(pool: PlayerRef[], userId: number): PlayerRef[] {
  const next = pool.filter((p) => p.user_id !== userId)
  return next.length === pool.length ? pool : next
}

function poolWith(pool: PlayerRef[], player: PlayerRef): PlayerRef[] {
  return [...poolWithout(pool, player.user_id), player].sort(byTierName)
}

export function applyAuctionEvent(view: AuctionView, ev: LiveEvent): Applied {
  if (ev.topic !== 'teams' || (typeof ev.seq === 'number' && ev.seq <= view.seq)) return { view, refetch: false }
  const data = (ev.data ?? {}) as TeamsEventData
  const seq = typeof ev.seq === 'number' ? ev.seq : view.seq
  if (data.tournament && data.tournament !== view.tournament) return { view: { ...view, seq }, refetch: false }
  const lot = data.lot
  let next: AuctionView = { ...view, seq }
  let refetch = false
  switch (ev.event) {
    case 'auction.lot':
      if (lot) {
        next = { ...next, lot, pool: poolWithout(view.pool, lot.player.user_id), unsold: withoutPlayer(view.unsold, lot.player.user_id) }
      }
      break
    case 'auction.bid':
      // The bid and what it changed of the open lot; a lot this view does not hold is read again.
      if (view.lot && view.lot.id === data.lot_id && data.bid && data.high_bid) {
        next = {
          ...next,
          lot: { ...view.lot, high_bid: data.high_bid, ends_at: data.ends_at ?? view.lot.ends_at, bids: [...(view.lot.bids ?? []), data.bid] },
        }
      } else {
        refetch = true
      }
      break
    case 'auction.sold':
      if (lot) {
        const sale: Sale = data.sale ?? {
          lot_id: lot.id,
          player: lot.player,
          team: lot.high_bid?.team ?? '',
          price: lot.high_bid?.amount ?? 0,
          at: lot.closed_at ?? ev.ts ?? new Date().toISOString(),
        }
        next = {
          ...next,
          lot: view.lot?.id === lot.id ? null : view.lot,
          sold: [...view.sold.filter((s) => s.lot_id !== sale.lot_id), sale],
          unsold: withoutPlayer(view.unsold, lot.player.user_id),
          pool: poolWithout(view.pool, lot.player.user_id),
        }
      }
      break
    case 'auction.unsold':
      if (lot) {
        next = {
          ...next,
          lot: view.lot?.id === lot.id ? null : view.lot,
          unsold: [...withoutPlayer(view.unsold, lot.player.user_id), { lot_id: lot.id, player: lot.player, at: lot.closed_at ?? ev.ts ?? '' }],
          pool: poolWith(view.pool, lot.player),
        }
      }
      break
    case 'auction.voided':
      if (lot) {
        next = { ...next, sold: view.sold.filter((s) => s.lot_id !== lot.id), pool: poolWith(view.pool, lot.player) }
      }
      break
    case 'auction.paused':
    case 'auction.resumed':
      // The open lot with its clock stopped (its time left) or restarted (its new deadline).
      if (data.flow) next = { ...next, flow: data.flow }
      if (lot && view.lot?.id === lot.id) next = { ...next, lot: { ...view.lot, ends_at: lot.ends_at, paused_left_ms: lot.paused_left_ms ?? null } }
      else if (lot) refetch = true
      break
    case 'auction.turn':
      if (data.flow) next = { ...next, flow: data.flow }
      break
    case 'team.updated': {
      const team = data.team
      if (!team) break
      const old = view.teams.find((t) => t.id === team.id)
      // A new captain leaves the pool and a former one may return to it: only a fresh read knows.
      if (old && (old.captain?.user_id ?? null) !== (team.captain?.user_id ?? null)) refetch = true
      next = { ...next, teams: view.teams.map((t) => (t.id === team.id ? team : t)) }
      if (!old) refetch = true
      break
    }
    default:
      break
  }
  return { view: next, refetch }
}

/** Applies, in order, events received while the view was being read. */
export function replayAuctionEvents(view: AuctionView, events: LiveEvent[]): AuctionView {
  return events.reduce<AuctionView>((v, ev) => applyAuctionEvent(v, ev).view, view)
}

/** The lot's bids, newest first (the server keeps them oldest first). */
export function bidsNewestFirst(lot: Pick<Lot, 'bids'> | null): NonNullable<Lot['bids']> {
  return [...(lot?.bids ?? [])].reverse()
}
