// The Points Table's rules in words, from what the server says it counts.
import type { Scoring } from '../types'

export const DEFAULT_SCORING: Scoring = { win: 3, loss: 0, kills_per_point: 50 }
export const DEFAULT_TIE_BREAK = ['points', 'kill difference', 'head-to-head', 'kills']

function pts(n: number) {
  return `${n} ${n === 1 ? 'point' : 'points'}`
}

/** "A win 3 points, a loss 0 points, and a point for every 50 kills." */
export function scoringLine(scoring: Scoring | null | undefined): string {
  const s = { ...DEFAULT_SCORING, ...scoring }
  const kills = s.kills_per_point > 0 ? `, and a point for every ${s.kills_per_point} kills` : ''
  return `A win ${pts(s.win)}, a loss ${pts(s.loss)}${kills}.`
}

/** "Ties: points, then kill difference, then head-to-head, then kills." */
export function tieBreakLine(order: string[] | null | undefined): string {
  const o = order?.length ? order : DEFAULT_TIE_BREAK
  return `Order: ${o.join(', then ')}.`
}
