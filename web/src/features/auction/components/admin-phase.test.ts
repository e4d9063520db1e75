import { describe, expect, it } from 'vitest'
import { phaseMoves } from './admin-phase'

describe('phase moves offered to organisers', () => {
  it('goes on one phase at a time and back one, never out of completed', () => {
    expect(phaseMoves('registration')).toEqual({ next: 'auction', back: undefined })
    expect(phaseMoves('auction')).toEqual({ next: 'matches', back: 'registration' })
    expect(phaseMoves('matches')).toEqual({ next: 'completed', back: 'auction' })
    expect(phaseMoves('completed')).toEqual({})
  })
})
