import { describe, expect, it } from 'vitest'
import { bidBlock, blockText, maxBid, minNextBid, nextBids } from './bids'

const lot = (over = {}) => ({ base_price: 1400, increment: 100, high_bid: null, status: 'open' as const, ...over })
const team = (over = {}) => ({ id: 'A', purse_left: 12_000, free_slots: 5, ...over })

describe('maxBid (as internal/auction/rules.go)', () => {
  it('keeps 1100 for each other free slot, and never above 2200', () => {
    expect(maxBid(12_000, 5)).toBe(2200)
    expect(maxBid(5000, 3)).toBe(2200)
    expect(maxBid(4000, 3)).toBe(1800)
    expect(maxBid(1500, 1)).toBe(1500)
  })

  it('a full team bids nothing', () => {
    expect(maxBid(9000, 0)).toBe(0)
  })
})

describe('nextBids', () => {
  it('opens at the base price, in the lot’s steps', () => {
    expect(minNextBid(lot())).toBe(1400)
    expect(nextBids(lot(), team())).toEqual([1400, 1500, 1600, 1700])
  })

  it('goes on from the high bid plus a step', () => {
    const l = lot({ high_bid: { team: 'B', amount: 1650 }, increment: 50 })
    expect(minNextBid(l)).toBe(1700)
    expect(nextBids(l, team(), 3)).toEqual([1700, 1750, 1800])
  })

  it('stops at the team’s max bid (purse less the other free slots)', () => {
    // 4000 left, 3 free slots: at most 4000 - 2 * 1100 = 1800.
    expect(nextBids(lot({ high_bid: { team: 'B', amount: 1600 } }), team({ purse_left: 4000, free_slots: 3 }))).toEqual([1700, 1800])
    expect(nextBids(lot({ high_bid: { team: 'B', amount: 1800 } }), team({ purse_left: 4000, free_slots: 3 }))).toEqual([])
  })

  it('never offers more than 2200', () => {
    expect(nextBids(lot({ high_bid: { team: 'B', amount: 2100 } }), team())).toEqual([2200])
    expect(nextBids(lot({ high_bid: { team: 'B', amount: 2200 } }), team())).toEqual([])
  })
})

describe('bidBlock', () => {
  it('lets a team bid on an open lot with time left', () => {
    expect(bidBlock(lot(), team(), 9)).toBeNull()
  })

  it('says why not: no lot, paused, closed, leading, full, over purse', () => {
    expect(bidBlock(null, team(), 9)).toBe('no-lot')
    // A paused lot's deadline is stale: paused, whatever its clock says.
    expect(bidBlock(lot({ paused_left_ms: 12_000 }), team(), 0)).toBe('paused')
    expect(bidBlock(lot(), team(), 0)).toBe('closed')
    expect(bidBlock(lot({ status: 'sold' }), team(), 9)).toBe('closed')
    expect(bidBlock(lot({ high_bid: { team: 'A', amount: 1400 } }), team(), 9)).toBe('leading')
    expect(bidBlock(lot(), team({ free_slots: 0 }), 9)).toBe('full')
    expect(bidBlock(lot({ high_bid: { team: 'B', amount: 1800 } }), team({ purse_left: 4000, free_slots: 3 }), 9)).toBe('over-purse')
  })

  it('words the purse limit with the team’s figures', () => {
    expect(blockText('over-purse', team({ purse_left: 4000, free_slots: 3 }))).toBe(
      'Over purse: Team A can bid at most 1800 credits while it must still fill 2 more slots at 1100.',
    )
    expect(blockText('full', team())).toBe('Team A has no free slot: its roster is full.')
  })
})
