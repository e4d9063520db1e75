// An overlay's options, from its URL's query string (the browser source's URL in OBS):
//   tournament=PPL7   the season (default: the site's current one)
//   scale=1.5         the whole 1920x1080 stage scaled (0.25 to 4), for a canvas of another size
//   theme=dark|light  light text outlined in dark (default), or dark text outlined in light
//   top=5             rows of the Red Cap on /overlay/standings (1 to 20)
//   rows=8            rows of the points table (1 to 16)
//   hold=30           seconds the sold banner stays after a lot closes (0 to 600)
export type OverlayTheme = 'dark' | 'light'

export type OverlayOptions = {
  tournament: string | null
  scale: number
  theme: OverlayTheme
  top: number
  rows: number
  hold: number
}

export const DEFAULT_OPTIONS: OverlayOptions = { tournament: null, scale: 1, theme: 'dark', top: 5, rows: 8, hold: 30 }

function numberIn(raw: string | null, min: number, max: number, fallback: number, whole: boolean): number {
  if (raw === null || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n)) return fallback
  const v = whole ? Math.round(n) : n
  return Math.min(max, Math.max(min, v))
}

/** The options a query string asks for; anything unknown or out of range falls back or is clamped. */
export function parseOverlayOptions(search: string): OverlayOptions {
  const q = new URLSearchParams(search)
  const tournament = q.get('tournament')?.trim() || null
  return {
    tournament,
    scale: numberIn(q.get('scale'), 0.25, 4, DEFAULT_OPTIONS.scale, false),
    theme: q.get('theme') === 'light' ? 'light' : 'dark',
    top: numberIn(q.get('top'), 1, 20, DEFAULT_OPTIONS.top, true),
    rows: numberIn(q.get('rows'), 1, 16, DEFAULT_OPTIONS.rows, true),
    hold: numberIn(q.get('hold'), 0, 600, DEFAULT_OPTIONS.hold, true),
  }
}
