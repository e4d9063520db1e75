import { describe, expect, it } from 'vitest'
import type { Match } from '../types'
import { resultsOf, withdrawalOutcome } from './undo-model'

const m = (id: number, a: string | null, b: string | null, status: Match['status']): Match =>
  ({ id, team1: a ? { id: a, name: `Team ${a}` } : null, team2: b ? { id: b, name: `Team ${b}` } : null, status }) as Match

describe('what a reset archives', () => {
  it('counts reported, disputed and completed matches, not the ones still to play', () => {
    expect(resultsOf([m(1, 'A', 'B', 'completed'), m(2, 'C', 'D', 'reported'), m(3, 'E', 'F', 'disputed'), m(4, 'G', 'H', 'scheduled'), m(5, null, null, 'scheduled')])).toBe(3)
  })
})

describe('what a withdrawal does to a team’s matches', () => {
  it('leaves the team out of fixtures not made yet', () => {
    expect(withdrawalOutcome('C', '', []).lines).toEqual(['Team C is left out of the fixtures when they are made.'])
  })
  it('forfeits the matches ready to play, leaves reports for a ruling, and says the format’s rule', () => {
    const all = [m(1, 'C', 'D', 'scheduled'), m(2, 'A', 'C', 'reported'), m(3, 'C', null, 'scheduled'), m(4, 'A', 'B', 'scheduled'), m(5, 'C', 'H', 'completed')]
    const out = withdrawalOutcome('C', 'double_elimination', all)
    expect(out.forfeits).toBe(1)
    expect(out.toRule).toEqual([2])
    expect(out.lines.join(' ')).toMatch(/losers bracket and the grand final/)
    expect(out.lines.join(' ')).toMatch(/Match 2 has a report: it waits for your ruling/)
  })
})
