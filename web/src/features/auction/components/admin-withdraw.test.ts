import { describe, expect, it } from 'vitest'
import { withdrawalText } from './admin-withdraw'

describe('what withdrawing a player does, as the confirmation says it', () => {
  it('is an unregistration while registering', () => {
    expect(withdrawalText('registration', 'Ace').join(' ')).toMatch(/as if they had unregistered: a confirmed place they free goes to the first player waiting/)
  })
  it('voids the sale of a player bought during the auction', () => {
    expect(withdrawalText('auction', 'Ace', { title: 'Team B', price: 1700 })).toEqual(['The sale is voided: Team B gets its 1,700 cr back, and Ace leaves the season.'])
  })
  it('frees the slot, or the bench place, for a replacement once the matches are on', () => {
    const slot = withdrawalText('matches', 'Ace', { title: 'Team B', price: 1400 }).join(' ')
    expect(slot).toMatch(/leaves Team B and the lineups/)
    expect(slot).toMatch(/Their slot goes to the replacement picked below, at the same price, or stays empty \(its 1,400 cr go back to the purse\)/)
    expect(withdrawalText('matches', 'Ace', { title: 'Team B', price: 1100, substitute: true }).join(' ')).toMatch(/Their bench place goes/)
  })
})
