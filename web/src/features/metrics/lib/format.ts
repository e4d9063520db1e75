// How the dashboard writes its figures.

/** Milliseconds: 420 ms, 1.9 s; — for none. */
export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—'
  return v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`
}

/** A share: 84%, 0.4%, 99.95%; — for none. */
export function percent(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—'
  const p = Math.round(v * 10000) / 100
  if (Number.isInteger(p)) return `${p}%`
  return p >= 99 || p < 1 ? `${p}%` : `${p.toFixed(1)}%`
}

/** A span of seconds: 40 s, 12 min, 3 h, 2 d; — for none. */
export function span(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—'
  if (seconds < 60) return `${Math.round(seconds)} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  if (seconds < 86400 * 2) return `${Math.round(seconds / 3600)} h`
  return `${Math.round(seconds / 86400)} d`
}

/** How long ago a time was, from now: 5 min ago. */
export function ago(iso: string, now = Date.now()): string {
  return `${span(Math.max(0, (now - Date.parse(iso)) / 1000))} ago`
}

/** A CLS score: 0.05. */
export function score(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : v.toFixed(2)
}
