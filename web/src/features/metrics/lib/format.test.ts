import { describe, expect, it } from 'vitest'
import { ago, ms, percent, span } from './format'

describe('the dashboard writes its figures', () => {
  it('milliseconds under a second, seconds above', () => {
    expect(ms(420.4)).toBe('420 ms')
    expect(ms(1940)).toBe('1.9 s')
    expect(ms(null)).toBe('—')
  })
  it('shares with the precision that tells them apart', () => {
    expect(percent(0.84)).toBe('84%')
    expect(percent(0.8437)).toBe('84.4%')
    expect(percent(0.9995)).toBe('99.95%')
    expect(percent(0.004)).toBe('0.4%')
  })
  it('spans in the largest unit that keeps them readable', () => {
    expect(span(40)).toBe('40 s')
    expect(span(720)).toBe('12 min')
    expect(span(3 * 3600)).toBe('3 h')
    expect(span(5 * 86400)).toBe('5 d')
    expect(ago('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:05:00Z'))).toBe('5 min ago')
  })
})
