// Money arrives as an integer count of the currency's minor unit beside its ISO 4217 code and the
// digits of that unit (`exponent`); it is written out from the integer, never through a float.

/** The amount as an exact decimal string: 1250, 2 → "12.50"; 1500, 0 → "1500". */
export function decimal(minor: number, exponent: number): string {
  const sign = minor < 0 ? '-' : ''
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, '0')
  if (exponent === 0) return sign + digits
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

/** The amount in the reader's way of writing money: "€12.50", "¥1,500". */
export function formatMoney(minor: number, currency: string, exponent: number, locale?: string): string {
  const text = decimal(minor, exponent)
  try {
    const f = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    })
    // A decimal string is formatted exactly (Intl.NumberFormat v3), whatever its size.
    return f.format(text as unknown as number)
  } catch {
    return `${text} ${currency}`
  }
}
