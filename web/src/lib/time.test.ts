import { clockSeconds, clockTime, dateOf, dayTime } from './time'

describe('the one date and time format', () => {
  const at = '2026-11-28T19:30:05Z'
  it('names the day, the date, a 24-hour time and the viewer’s zone', () => {
    expect(dayTime(at, 'UTC')).toBe('Sat 28 Nov, 19:30 UTC')
    expect(dayTime(at, 'Europe/Paris')).toBe('Sat 28 Nov, 20:30 CET')
    expect(dayTime(at, 'America/New_York')).toBe('Sat 28 Nov, 14:30 GMT-5')
  })
  it('says the same moment in the time of the zone it is read in', () => {
    expect(dayTime(at, 'Asia/Kolkata')).toBe('Sun 29 Nov, 01:00 GMT+5:30')
  })
  it('has a time alone, with its zone, to the second for bids, and a day alone', () => {
    expect(clockTime(at, 'UTC')).toBe('19:30 UTC')
    expect(clockSeconds(at, 'UTC')).toBe('19:30:05')
    expect(dateOf(at, 'Asia/Kolkata')).toBe('29 Nov 2026')
  })
  it('says nothing of a moment it cannot read', () => {
    for (const f of [dayTime, clockTime, clockSeconds, dateOf]) {
      expect(f(null)).toBe('')
      expect(f('not a time')).toBe('')
    }
  })
})
