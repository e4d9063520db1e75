// The bidding rules as the server applies them (internal/auction/rules.go), so the captain's
// buttons offer only amounts the server would take. The server still decides.
import type { LeagueTeam, Lot } from '../types'

export const MIN_PRICE = 1100
export const MAX_PRICE = 2200

/** The most a team may bid: its purse left less the lowest price of each other free slot. */
export function maxBid(purseLeft: number, freeSlots: number, minPrice = MIN_PRICE, maxPrice = MAX_PRICE): number {
  if (freeSlots <= 0) return 0
  return Math.min(purseLeft - minPrice * (freeSlots - 1), maxPrice)
}

/** The lowest bid the lot takes now: the base price, or the high bid plus a step. */
export function minNextBid(lot: Pick<Lot, 'base_price' | 'increment' | 'high_bid'>): number {
  return lot.high_bid ? lot.high_bid.amount + lot.increment : lot.base_price
}

/** Up to `n` amounts the team may bid now, lowest first, in the lot's steps. */
export function nextBids(
  lot: Pick<Lot, 'base_price' | 'increment' | 'high_bid'>,
  team: Pick<LeagueTeam, 'purse_left' | 'free_slots'>,
  n = 4,
): number[] {
  const cap = maxBid(team.purse_left, team.free_slots)
  const step = lot.increment > 0 ? lot.increment : 50
  const out: number[] = []
  for (let a = minNextBid(lot); a <= cap && out.length < n; a += step) out.push(a)
  return out
}

export type BidBlock = 'no-lot' | 'paused' | 'closed' | 'leading' | 'full' | 'over-purse' | null

/** Why the team cannot bid on the lot with `secondsLeft` on its clock, or null when it can. */
export function bidBlock(
  lot: Pick<Lot, 'base_price' | 'increment' | 'high_bid' | 'status' | 'paused_left_ms'> | null,
  team: Pick<LeagueTeam, 'id' | 'purse_left' | 'free_slots'>,
  secondsLeft: number,
): BidBlock {
  if (!lot) return 'no-lot'
  if (lot.status === 'open' && lot.paused_left_ms != null) return 'paused'
  if (lot.status !== 'open' || secondsLeft <= 0) return 'closed'
  if (lot.high_bid?.team === team.id) return 'leading'
  if (team.free_slots <= 0) return 'full'
  if (nextBids(lot, team, 1).length === 0) return 'over-purse'
  return null
}

/** The plain words for a block, naming the team's limit where it is the reason. */
export function blockText(block: BidBlock, team: Pick<LeagueTeam, 'id' | 'purse_left' | 'free_slots'>): string {
  switch (block) {
    case 'no-lot':
      return 'Waiting for the next lot: the bid buttons appear the moment it opens.'
    case 'paused':
      return 'The auction is paused: bidding resumes when the organiser restarts the countdown.'
    case 'closed':
      return 'This lot is closed.'
    case 'leading':
      return `Team ${team.id} holds the high bid. Wait for another team to outbid you.`
    case 'full':
      return `Team ${team.id} has no free slot: its roster is full.`
    case 'over-purse':
      return `Over purse: Team ${team.id} can bid at most ${maxBid(team.purse_left, team.free_slots)} credits while it must still fill ${Math.max(0, team.free_slots - 1)} more slots at ${MIN_PRICE}.`
    default:
      return ''
  }
}
