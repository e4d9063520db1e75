import { describe, expect, it } from 'vitest'
import { dayOf, seasonDates } from './season'

describe("a season's dates", () => {
  it('are calendar days, the same in every time zone', () => {
    expect(dayOf('2026-12-01')).toBe('1 Dec 2026')
    expect(dayOf('2026-12-31')).toBe('31 Dec 2026')
    expect(dayOf('not a day')).toBe('')
    expect(dayOf(null)).toBe('')
  })

  it('read as a span, an open start or end, or nothing', () => {
    expect(seasonDates({ starts_at: '2026-12-01', ends_at: '2026-12-20' })).toBe('1 Dec 2026 – 20 Dec 2026')
    expect(seasonDates({ starts_at: '2026-12-01', ends_at: '2026-12-01' })).toBe('1 Dec 2026')
    expect(seasonDates({ starts_at: '2026-12-01', ends_at: null })).toBe('from 1 Dec 2026')
    expect(seasonDates({ starts_at: null, ends_at: '2026-12-20' })).toBe('until 20 Dec 2026')
    expect(seasonDates({})).toBe('')
  })
})
