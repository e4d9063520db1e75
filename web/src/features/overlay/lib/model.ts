// What the overlays show, worked out from the views the site already reads: pure, so each rule is
// tested without a page.
import type { AuctionView, LeagueTeam, Sale, Unsold } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'

/** The last lot that closed: sold to a team, or unsold. */
export type LastResult = { kind: 'sold'; sale: Sale } | { kind: 'unsold'; unsold: Unsold }

const atOf = (r: LastResult) => Date.parse(r.kind === 'sold' ? r.sale.at : r.unsold.at) || 0

export function lastResult(view: Pick<AuctionView, 'sold' | 'unsold'>): LastResult | null {
  const all: LastResult[] = [
    ...(view.sold ?? []).map((sale): LastResult => ({ kind: 'sold', sale })),
    ...(view.unsold ?? []).map((unsold): LastResult => ({ kind: 'unsold', unsold })),
  ]
  return all.reduce<LastResult | null>((best, r) => (!best || atOf(r) >= atOf(best) ? r : best), null)
}

/**
 * The banner after a lot closes: shown while no lot is open, for `hold` seconds of the server's
 * clock (`serverNow`) after the close, so a stream sees the hammer fall and then a clean screen.
 */
export function closingBanner(view: Pick<AuctionView, 'lot' | 'sold' | 'unsold'>, serverNow: number, hold: number): LastResult | null {
  if (view.lot && view.lot.status === 'open') return null
  const last = lastResult(view)
  if (!last) return null
  return serverNow - atOf(last) <= hold * 1000 ? last : null
}

export function teamByLetter(teams: LeagueTeam[] | undefined, letter: string | null | undefined): LeagueTeam | null {
  if (!letter) return null
  return teams?.find((t) => t.id === letter) ?? null
}

/** A team as a stream names it: its name, else "Team A". */
export function teamLabel(team: Pick<LeagueTeam, 'id' | 'name'> | null, letter: string): string {
  return team?.name?.trim() || `Team ${letter}`
}

/** Each side's kills in the reported (or ruled) result, by team letter; null before a report. */
export function sideKills(match: Pick<Match, 'report' | 'team1' | 'team2'>): Record<string, number> | null {
  if (!match.report) return null
  const kills: Record<string, number> = {}
  for (const t of [match.team1, match.team2]) if (t) kills[t.id] = 0
  for (const p of match.report.players ?? []) kills[p.team] = (kills[p.team] ?? 0) + (p.kills || 0)
  return kills
}
