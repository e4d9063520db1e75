import { describe, expect, it } from 'vitest'
import { compactCount, plural } from './format'

describe('compactCount', () => {
  it.each([
    [0, '0'],
    [9999, '9999'],
    [10_000, '10k'],
    [11_551, '11.6k'],
    [99_949, '99.9k'],
    [157_920, '158k'],
    [2_450_000, '2.5M'],
    [99_960, '100k'],
    [999_600, '1M'],
    [null, '0'],
  ])('%s → %s', (n, want) => {
    expect(compactCount(n)).toBe(want)
  })
})

describe('plural', () => {
  it('says one and many', () => {
    expect(plural(1, 'player')).toBe('1 player')
    expect(plural(2, 'player')).toBe('2 players')
  })
})
