import { describe, expect, it } from 'vitest'
import { makePlayer } from '@/testing/fixtures'
import { checkinState, counts, notCheckedIn, placesLine, waitlist, waitlistPlace } from './waitlist'

const players = [
  makePlayer(1, { status: 'confirmed', checked_in_at: '2026-01-03T10:00:00Z' }),
  makePlayer(2, { status: 'confirmed' }),
  makePlayer(3), // from before the waitlist: confirmed
  makePlayer(4, { status: 'waitlisted', waitlisted_at: '2026-01-05T00:00:00Z', created_at: '2026-01-01T00:00:00Z' }),
  makePlayer(5, { status: 'waitlisted', waitlisted_at: '2026-01-02T00:00:00Z', checked_in_at: '2026-01-03T00:00:00Z' }),
  // Dropped at the same deadline as 4, registered later: behind it.
  makePlayer(6, { status: 'waitlisted', waitlisted_at: '2026-01-05T00:00:00Z', created_at: '2026-01-02T00:00:00Z' }),
]

describe('the waitlist', () => {
  it('orders by who joined it first, then who registered first', () => {
    expect(waitlist(players).map((p) => p.id)).toEqual([5, 4, 6])
    expect(waitlistPlace(players, 6)).toBe(3)
    expect(waitlistPlace(players, '5')).toBe(1)
    expect(waitlistPlace(players, 1)).toBe(0)
  })

  it('counts the confirmed, the waiting and the check-ins', () => {
    expect(counts(players)).toEqual({ confirmed: 3, waitlisted: 3, checkedIn: 2, confirmedCheckedIn: 1 })
    expect(placesLine(players)).toBe('3 confirmed · 3 on the waitlist')
    expect(placesLine(players.slice(0, 3), 40)).toBe('3 of 40 confirmed')
  })

  it('lists the confirmed players the deadline would move, captains aside', () => {
    expect(notCheckedIn({ players }, new Set(['3'])).map((p) => p.id)).toEqual([2])
  })
})

describe('checkinState', () => {
  const now = Date.parse('2026-01-10T12:00:00Z')
  it.each([
    ['no window', undefined, 'none'],
    ['cancelled', { opened_at: null, deadline: null, closed_at: null }, 'none'],
    ['open', { opened_at: '2026-01-10T10:00:00Z', deadline: '2026-01-10T13:00:00Z', closed_at: null }, 'open'],
    ['past its deadline', { opened_at: '2026-01-10T10:00:00Z', deadline: '2026-01-10T11:00:00Z', closed_at: null }, 'closing'],
    ['closed', { opened_at: '2026-01-10T10:00:00Z', deadline: '2026-01-10T11:00:00Z', closed_at: '2026-01-10T11:00:00Z' }, 'closed'],
  ] as const)('%s', (_, c, want) => {
    expect(checkinState(c, now)).toBe(want)
  })
})
