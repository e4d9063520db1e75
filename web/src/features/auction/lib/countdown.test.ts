import { describe, expect, it } from 'vitest'
import { clockOffset, formatSeconds, raiseOffset, secondsLeft } from './countdown'

describe('countdown against the server clock', () => {
  it('estimates the offset at the middle of the request', () => {
    const sent = Date.parse('2026-01-01T12:00:00.000Z')
    // The server read 5 s later than the client’s clock, the request took 200 ms.
    expect(clockOffset('2026-01-01T12:00:05.100Z', sent, sent + 200)).toBe(5000)
    expect(clockOffset('not a time', sent, sent)).toBe(0)
  })

  it('counts whole seconds to ends_at in server time, never below zero', () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z')
    const endsAt = '2026-01-01T12:00:20.000Z'
    expect(secondsLeft(endsAt, now, 0)).toBe(20)
    expect(secondsLeft(endsAt, now + 100, 0)).toBe(20)
    // A client 5 s behind the server shows 15 s, not 20.
    expect(secondsLeft(endsAt, now, 5000)).toBe(15)
    expect(secondsLeft(endsAt, now + 30_000, 0)).toBe(0)
    expect(secondsLeft(null, now, 0)).toBe(0)
  })

  it('an event’s timestamp raises an offset that was too low, never lowers it', () => {
    const at = Date.parse('2026-01-01T12:00:00.000Z')
    expect(raiseOffset(0, '2026-01-01T12:00:03.000Z', at)).toBe(3000)
    expect(raiseOffset(3000, '2026-01-01T11:59:59.000Z', at)).toBe(3000)
    expect(raiseOffset(1000, undefined, at)).toBe(1000)
  })

  it('formats as m:ss', () => {
    expect(formatSeconds(9)).toBe('0:09')
    expect(formatSeconds(65)).toBe('1:05')
    expect(formatSeconds(-3)).toBe('0:00')
  })
})
