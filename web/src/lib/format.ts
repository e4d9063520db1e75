/** "1 player", "2 players". */
export function plural(n: number, word: string, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`
}

/** A count short enough for a card's stat cell: 9999 as is, 11551 → "11.6k", 157920 → "158k". */
export function compactCount(n: number | null | undefined) {
  const v = Math.round(Number(n) || 0)
  if (Math.abs(v) < 10_000) return String(v)
  if (Math.abs(v) < 999_500) {
    const k = v / 1000
    return `${Math.abs(v) < 99_950 ? Number(k.toFixed(1)) : Math.round(k)}k`
  }
  return `${Number((v / 1_000_000).toFixed(1))}M`
}
