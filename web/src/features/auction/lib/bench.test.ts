import { describe, expect, it } from 'vitest'
import type { SubstituteRequest } from '../types'
import { benchOf } from './bench'

const request = (id: number, team: string, price: number, status: SubstituteRequest['status'] = 'pending'): SubstituteRequest => ({
  id,
  team,
  player: { user_id: id, name: `P${id}`, tier: 4, image: null, kd: 1, games_played: 10, level: 5 },
  price,
  status,
  asked_at: '',
  decided_at: null,
  reason: '',
})

describe('benchOf', () => {
  it('counts what a team asked for against its bench and its purse', () => {
    const b = benchOf({ max: 2, requests: [request(1, 'A', 1400), request(2, 'B', 1100), request(3, 'A', 1100, 'refused')] }, {
      id: 'A',
      purse_left: 2600,
      substitutes: [],
    })
    expect(b.pending.map((r) => r.id)).toEqual([1])
    expect(b.room).toBe(1)
    expect(b.purse).toBe(1200)
    expect(b.whyNot(1100)).toBe('')
    expect(b.whyNot(1400)).toMatch(/^Over purse/)
  })

  it('is full with its substitutes and requests', () => {
    const b = benchOf({ max: 2, requests: [request(1, 'A', 1100)] }, {
      id: 'A',
      purse_left: 9000,
      substitutes: [{ user_id: 9, name: 'Sub', image: null, price: 1100, tier: 4 }],
    })
    expect(b.room).toBe(0)
    expect(b.whyNot(1100)).toMatch(/^Your bench is full/)
  })
})
