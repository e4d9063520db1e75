import { describe, expect, it } from 'vitest'
import type { MoveOption } from '../api/phase-moves'
import { offerOf } from './admin-phase'

const move = (m: Partial<MoveOption>): MoveOption => ({ to: 'matches', back: false, allowed: true, force: false, refusals: [], warnings: [], ...m })

describe('phase moves offered to organisers, as the server would take them', () => {
  it('offers a clean move with a plain yes', () => {
    expect(offerOf(move({}))).toEqual({ kind: 'move', label: 'Move to matches', confirmLabel: 'Yes, matches', force: false, problems: [] })
  })
  it('offers "Move anyway" only for a move the server takes with force, listing what it overrides', () => {
    const warnings = ['Team A has 3 of 5 slots empty', 'Team B has 3 of 5 slots empty']
    expect(offerOf(move({ force: true, warnings }))).toEqual({ kind: 'move', label: 'Move to matches', confirmLabel: 'Move anyway', force: true, problems: warnings })
  })
  it('offers no button for a refused move, only its reasons', () => {
    const refusals = ['its fixtures are made: reset them first (their results are archived)']
    expect(offerOf(move({ to: 'auction', back: true, allowed: false, refusals }))).toEqual({ kind: 'refused', label: 'Back to auction', why: refusals })
  })
})
