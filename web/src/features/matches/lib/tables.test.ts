import { describe, expect, it } from 'vitest'
import { scoringLine, tieBreakLine } from './tables'

describe('the Points Table rules in words', () => {
  it('states the scoring the server sends', () => {
    expect(scoringLine({ win: 3, loss: 0, kills_per_point: 50 })).toBe('A win 3 points, a loss 0 points, and a point for every 50 kills.')
    expect(scoringLine({ win: 2, loss: 1, kills_per_point: 0 })).toBe('A win 2 points, a loss 1 point.')
    expect(scoringLine(null)).toBe('') // the server's word only: no default of the web app's own
  })

  it('states the tiebreak order', () => {
    expect(tieBreakLine(['points', 'kill difference', 'head-to-head', 'kills'])).toBe(
      'Order: points, then kill difference, then head-to-head, then kills.',
    )
    expect(tieBreakLine([])).toBe('')
  })
})
