import { describe, expect, it } from 'vitest'
import { makeMatch } from '@/testing/league-fixtures'
import { upcomingMatches } from './upcoming'

describe('the next matches', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 11, 1, h)).toISOString()

  it('are the live ones, then the timed ones soonest first, then those without a time', () => {
    const list = [
      makeMatch({ id: 1, scheduled_at: null, round_number: 2 }),
      makeMatch({ id: 2, scheduled_at: at(20) }),
      makeMatch({ id: 3, scheduled_at: null, round_number: 1 }),
      makeMatch({ id: 4, status: 'live', scheduled_at: at(18) }),
      makeMatch({ id: 5, scheduled_at: at(19) }),
    ]
    expect(upcomingMatches(list, 10).map((m) => m.id)).toEqual([4, 5, 2, 3, 1])
    expect(upcomingMatches(list, 2).map((m) => m.id)).toEqual([4, 5])
  })

  it('leave out what is played, reported or waiting for its sides', () => {
    const list = [
      makeMatch({ id: 1, status: 'completed', winner: 'A' }),
      makeMatch({ id: 2, status: 'reported' }),
      makeMatch({ id: 3, team2: null }),
      makeMatch({ id: 4, status: 'cancelled' }),
      makeMatch({ id: 5 }),
    ]
    expect(upcomingMatches(list).map((m) => m.id)).toEqual([5])
  })
})
