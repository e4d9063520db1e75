// Live cheers (docs/hub.md, "Live cheers"): the fixed reactions, and how a window's counts become a
// burst on the page. Kept free of React so the proportions can be tested.
export const CHEER_KINDS = [
  { kind: 'fire', emoji: '🔥', label: 'Fire' },
  { kind: 'clap', emoji: '👏', label: 'Clap' },
  { kind: 'wow', emoji: '😮', label: 'Wow' },
  { kind: 'gg', emoji: '🤝', label: 'GG' },
  { kind: 'sad', emoji: '😢', label: 'Sad' },
] as const

export type CheerKind = (typeof CHEER_KINDS)[number]['kind']

/** The most particles one kind's window draws: past it the burst grows in size, not in number. */
export const MAX_PARTICLES = 16

/**
 * How many particles a window's count draws: one per tap up to 4, then growing with the square
 * root, so 10 taps and 10,000 taps both read at a glance without flooding the page.
 */
export function particlesFor(count: number): number {
  if (!(count > 0)) return 0
  if (count <= 4) return Math.round(count)
  return Math.min(MAX_PARTICLES, Math.round(2 + 2 * Math.sqrt(count)))
}

/** The scale of a burst's particles: 1 for a few taps, up to 2 for a crowd. */
export function scaleFor(count: number): number {
  if (!(count > 0)) return 1
  return Math.min(2, 1 + Math.log10(count) / 3)
}

/** A short count: 7, 1.2k, 15k. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n)
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`
  return `${Math.round(n / 1000)}k`
}
