// Whether the site's season takes registrations now, and what comes after it: what every place that
// offers Register asks (the sign-up's steps, the stats card, the profile, the REGISTER buttons).
// Whether Register is offered is the league's rules table (lib/phase, the server's own), so a page
// never leads a player to a button the server refuses; outside registration the player learns
// when the next registration opens instead.
import { useTournamentName } from '@/config/app-config'
import type { User } from '@/lib/auth'
import { offersFor, viewerOf, type Phase, type Viewer } from '@/lib/phase'
import { useSeasons } from '@/features/matches/api/league'
import type { Season } from '@/features/matches/types'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { dayOf, seasonDates } from '@/features/tournament/lib/season'

/** A season announced after the site's current one. */
export type NextSeason = {
  name: string
  /** The name it goes by on the site. */
  display: string
  /** Its days in words ('' when it has none yet). */
  dates: string
  /** The server takes a registration for it now. */
  register: boolean
}

export type RegistrationWindow = {
  tournament: string
  display: string
  phase: Phase | undefined
  /** Register is offered: the server takes a registration for the season now; undefined while its phase is read. */
  open: boolean | undefined
  /** The season's last day in words ('' when not set). */
  ends: string
  /** Outside registration, the next season when one is announced. */
  next: NextSeason | null
}

/**
 * The season announced after `current`: the newest other season not yet completed (the site's
 * current season stays the configured one until it is completed, so a new one waits beside it).
 */
export function nextSeasonOf(seasons: readonly Season[] | undefined, current: string, viewer: Viewer): NextSeason | null {
  const next = seasons?.find((s) => s.name !== current && !s.current && s.status !== 'completed')
  if (!next) return null
  return { name: next.name, display: next.display_name || next.name, dates: seasonDates(next), register: offersFor(next.status, viewer).register }
}

/** Where registration stands for the site's season, for this viewer. The season list is read only when closed. */
export function useRegistrationWindow(user: User | null): RegistrationWindow {
  const tournament = useTournamentName()
  const info = useTournamentInfo(tournament).data
  const viewer = viewerOf(user, tournament)
  const phase = info?.status
  const open = phase ? offersFor(phase, viewer).register : undefined
  const seasons = useSeasons(open === false).data
  return {
    tournament,
    display: info?.display_name || tournament,
    phase,
    open,
    ends: dayOf(info?.ends_at),
    next: open === false ? nextSeasonOf(seasons, tournament, viewer) : null,
  }
}
