// The next matches of a season, as the home page lists them. Pure, so tested on its own.
import type { Match } from '../types'
import { shownStatus } from './match-model'

/**
 * The matches still to play whose sides are known: the live ones first, then those with a time,
 * soonest first, then those still waiting for a time (by round); at most `limit`.
 */
export function upcomingMatches(matches: Match[], limit = 4, now: number = Date.now()): Match[] {
  const open = matches.filter((m) => (m.status === 'scheduled' || m.status === 'live') && m.team1 && m.team2)
  const rank = (m: Match) => (shownStatus(m, now) === 'live' ? 0 : m.scheduled_at ? 1 : 2)
  return open
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.scheduled_at && b.scheduled_at ? Date.parse(a.scheduled_at) - Date.parse(b.scheduled_at) : 0) ||
        a.round_number - b.round_number ||
        a.id - b.id,
    )
    .slice(0, limit)
}
