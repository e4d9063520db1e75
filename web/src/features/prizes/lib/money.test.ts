import { describe, expect, it } from 'vitest'
import { decimal, formatMoney } from './money'

describe('money', () => {
  it('writes minor units as an exact decimal', () => {
    expect(decimal(1250, 2)).toBe('12.50')
    expect(decimal(5, 2)).toBe('0.05')
    expect(decimal(1500, 0)).toBe('1500')
    expect(decimal(1234, 3)).toBe('1.234')
    expect(decimal(-105, 2)).toBe('-1.05')
    // 0.1 + 0.2 style drift cannot happen: the digits are the integer's own.
    expect(decimal(900719925474099, 2)).toBe('9007199254740.99')
  })

  it('formats with the currency', () => {
    expect(formatMoney(50000, 'EUR', 2, 'en-GB')).toBe('€500.00')
    expect(formatMoney(1500, 'JPY', 0, 'en-US')).toBe('¥1,500')
  })
})
