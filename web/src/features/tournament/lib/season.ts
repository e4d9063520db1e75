// A season's identity as the pages say it: its dates in words. Pure, so tested on its own.
import { dateOf } from '@/lib/time'
import type { SeasonIdentity } from '../types'

/** A calendar day (YYYY-MM-DD) as "1 Dec 2026": the same day for every reader, whatever their time zone. */
export function dayOf(day: string | null | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return ''
  return dateOf(`${day}T00:00:00Z`, 'UTC')
}

/** "1 Dec 2026 – 20 Dec 2026", "from 1 Dec 2026", "until 20 Dec 2026", or '' with no dates. */
export function seasonDates(s: Partial<Pick<SeasonIdentity, 'starts_at' | 'ends_at'>>): string {
  const from = dayOf(s.starts_at)
  const to = dayOf(s.ends_at)
  if (from && to) return from === to ? from : `${from} – ${to}`
  if (from) return `from ${from}`
  if (to) return `until ${to}`
  return ''
}
