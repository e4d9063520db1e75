// The Points Table's rules in words, from what the server says it counts.
import type { Scoring } from '../types'

function pts(n: number) {
  return `${n} ${n === 1 ? 'point' : 'points'}`
}

/** "A win 3 points, a loss 0 points, and a point for every 50 kills." Only what the server says: nothing until it has. */
export function scoringLine(scoring: Scoring | null | undefined): string {
  if (!scoring) return ''
  const s = scoring
  const kills = s.kills_per_point > 0 ? `, and a point for every ${s.kills_per_point} kills` : ''
  return `A win ${pts(s.win)}, a loss ${pts(s.loss)}${kills}.`
}

/** "Ties: points, then kill difference, then head-to-head, then kills." */
export function tieBreakLine(order: string[] | null | undefined): string {
  return order?.length ? `Order: ${order.join(', then ')}.` : ''
}
