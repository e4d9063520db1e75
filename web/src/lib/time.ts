// Moments as the site shows them, in the viewer's own time zone: a day and a time, how far off it
// is, and the datetime-local inputs' values. Shared by the matches and the check-in.
/** "in 23 h 5 min", "in 4 min", or "now" for the time left until `iso`. */
export function timeLeft(iso: string | null, now: number = Date.now()): string {
  if (!iso) return ''
  const ms = Date.parse(iso) - now
  if (!Number.isFinite(ms)) return ''
  if (ms <= 0) return 'now'
  const min = Math.max(1, Math.round(ms / 60_000))
  const h = Math.floor(min / 60)
  const rest = min % 60
  return h > 0 ? `in ${h} h${rest ? ` ${rest} min` : ''}` : `in ${min} min`
}

// The site's one format for a moment: day, date and a 24-hour time in the viewer's time zone, with the
// zone named ("Sat 28 Nov, 19:30 CET"), so two people in two countries can tell they mean the same
// time. The formatters are made once each (building one costs more than formatting with it).
const formats = new Map<string, Intl.DateTimeFormat>()
function formatter(kind: 'day-time' | 'clock' | 'clock-seconds' | 'date', timeZone?: string) {
  const key = `${kind}|${timeZone ?? ''}`
  let f = formats.get(key)
  if (!f) {
    const clock = { hour: '2-digit', minute: '2-digit', hour12: false } as const
    const options: Intl.DateTimeFormatOptions =
      kind === 'day-time'
        ? { weekday: 'short', day: 'numeric', month: 'short', ...clock, timeZoneName: 'short' }
        : kind === 'clock'
          ? { ...clock, timeZoneName: 'short' }
          : kind === 'clock-seconds'
            ? { ...clock, second: '2-digit' }
            : { day: 'numeric', month: 'short', year: 'numeric' }
    f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone })
    formats.set(key, f)
  }
  return f
}

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null
  const at = new Date(iso)
  return Number.isNaN(at.getTime()) ? null : at
}

/** A moment in the viewer's time zone, zone named: "Sat 28 Nov, 19:30 UTC"; '' when not set. */
export function dayTime(iso: string | null | undefined, timeZone?: string): string {
  const at = parse(iso)
  return at ? formatter('day-time', timeZone).format(at).replace(' at ', ', ') : ''
}

/** The time of day of a moment, in the viewer's time zone, zone named: "19:30 UTC"; '' when not set. */
export function clockTime(iso: string | null | undefined, timeZone?: string): string {
  const at = parse(iso)
  return at ? formatter('clock', timeZone).format(at) : ''
}

/** To the second, for what happens within a minute (a lot's bids): "19:30:05"; '' when not set. */
export function clockSeconds(iso: string | null | undefined, timeZone?: string): string {
  const at = parse(iso)
  return at ? formatter('clock-seconds', timeZone).format(at) : ''
}

/** The day of a moment in the viewer's time zone: "28 Nov 2026"; '' when not set. */
export function dateOf(iso: string | null | undefined, timeZone?: string): string {
  const at = parse(iso)
  return at ? formatter('date', timeZone).format(at) : ''
}

/** How far off a moment is: "in 3 days", "in 2 h 5 min", "started 10 min ago". */
export function fromNow(iso: string | null, now: number = Date.now()): string {
  if (!iso) return ''
  const ms = Date.parse(iso) - now
  if (!Number.isFinite(ms)) return ''
  if (ms <= 0) {
    const ago = Math.round(-ms / 60_000)
    if (ago < 1) return 'starting now'
    return ago < 120 ? `started ${ago} min ago` : `started ${Math.round(ago / 60)} h ago`
  }
  if (ms >= 48 * 3_600_000) return `in ${Math.round(ms / 86_400_000)} days`
  return timeLeft(iso, now)
}

/** How long ago a past moment was: "just now", "5 min ago", "3 h ago", "4 days ago". */
export function ago(iso: string | null, now: number = Date.now()): string {
  if (!iso) return ''
  const min = Math.round((now - Date.parse(iso)) / 60_000)
  if (!Number.isFinite(min)) return ''
  if (min < 1) return 'just now'
  if (min < 120) return `${min} min ago`
  if (min < 48 * 60) return `${Math.round(min / 60)} h ago`
  return `${Math.round(min / 1440)} days ago`
}

/** A datetime-local input's value (the viewer's local time, to the minute) for iso. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
}

/** A datetime-local input's value as the UTC time the server takes, or null when it is not one. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null
  const d = new Date(value) // a date-time without an offset is local time
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}
