import { describe, expect, it } from 'vitest'
import { cardFromSaved, randomCategory, toInt, toSavePayload } from './stats-model'

const extracted = {
  discord_username: 'Zoom',
  level: '42',
  kills: '1,234',
  deaths: 'abc',
  total_games: '300',
  sk_id: 'SK-77',
  kd_ratio: '2.5',
  cart_image: null,
}

describe('stats model', () => {
  it('parses numeric stats as integers with default 0 (seed §5)', () => {
    expect(toInt('42')).toBe(42)
    expect(toInt('1,234')).toBe(1234)
    expect(toInt('abc')).toBe(0)
    expect(toInt(undefined)).toBe(0)
  })

  it('builds the save payload of seed §3', () => {
    const p = toSavePayload(extracted, 3)
    expect(p).toMatchObject({
      sk_id: 'SK-77',
      level: 42,
      kills: 1234,
      deaths: 0,
      games_played: 300,
      kd: 2.5,
      cart_image: null,
      category: 3,
      preferred_role: 'Player',
    })
    expect(typeof p.description).toBe('string')
  })

  it('picks a category from 1 to 4', () => {
    expect(randomCategory(() => 0)).toBe(1)
    expect(randomCategory(() => 0.999)).toBe(4)
    for (let i = 0; i < 50; i++) expect([1, 2, 3, 4]).toContain(randomCategory())
  })

  it('reads saved stats defensively', () => {
    expect(cardFromSaved({ kd: 1.234, games_played: 10, category: 2, sk_id: '' }, 'Me')).toMatchObject({
      name: 'Me',
      kd: '1.23',
      games: 10,
      category: 2,
      skid: 'N/A',
    })
  })
})
