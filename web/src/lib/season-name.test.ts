import { describe, expect, it } from 'vitest'
import { phaseName, seasonName, seasonNames } from './season-name'

describe('naming a season', () => {
  it('goes by its display name, else its tournament’s name (also while the season is not read yet)', () => {
    expect(seasonName({ name: 'PPL7', display_name: 'PPLS-6.0' })).toBe('PPLS-6.0')
    expect(seasonName({ name: 'PPL8', display_name: '' })).toBe('PPL8')
    expect(seasonName({ name: 'PPL8', display_name: '  ' })).toBe('PPL8')
    expect(seasonName({ name: 'PPL8' })).toBe('PPL8')
    expect(seasonName(undefined, 'PPL7')).toBe('PPL7')
  })

  it('names seasons in a list by their display names, the short name added only to tell two alike apart', () => {
    const names = seasonNames([
      { name: 'PPL7', display_name: 'PPLS-6.0' },
      { name: 'PPL6', display_name: 'Winter Cup' },
      { name: 'PPL5', display_name: 'winter cup' },
      { name: 'PPL4' },
    ])
    expect([...names.entries()]).toEqual([
      ['PPL7', 'PPLS-6.0'],
      ['PPL6', 'Winter Cup (PPL6)'],
      ['PPL5', 'winter cup (PPL5)'],
      ['PPL4', 'PPL4'],
    ])
  })
})

describe('naming a phase', () => {
  it('says each phase in words a player understands', () => {
    expect(phaseName('registration')).toBe('Registration open')
    expect(phaseName('auction')).toBe('Auction under way')
    expect(phaseName('matches')).toBe('Matches under way')
    expect(phaseName('completed')).toBe('Season completed')
    expect(phaseName(undefined)).toBe('')
  })
})
