import { describe, expect, it } from 'vitest'
import { credits, figures } from './bits'

describe('credits', () => {
  it('groups whole credits by threes as en-GB does', () => {
    for (const n of [0, 7, 999, 1000, 1700, 22000, 1234567, -1500]) {
      expect(credits(n)).toBe(`${new Intl.NumberFormat('en-GB').format(n)} cr`)
    }
  })
})

describe('figures', () => {
  const p = { kd: 1.849, games_played: 420, level: 31 }
  it('says the K/D, games and level the auction shows', () => {
    expect(figures(p)).toBe('K/D 1.85 · 420 games · level 31')
    expect(figures(p, { level: false })).toBe('K/D 1.85 · 420 games')
    expect(figures(p, { games: false, level: false })).toBe('K/D 1.85')
  })
  it('says a hidden profile is hidden, not that its figures are zero', () => {
    expect(figures({ kd: 0, games_played: 0, level: 0, hidden: true })).toBe('Profile hidden')
  })
})
