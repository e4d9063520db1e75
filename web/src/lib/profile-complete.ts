// When a player's profile is complete (docs/site.md, "The player's path"): saved stats with the
// games played, the figure a Stats screenshot may not show (older builds of the game). A record kept
// without it has 0 there (the card's Games played "—"); such a profile, like one with no stats, is
// asked for again at the next sign-in.
import type { User } from './auth'

/** A figure the saved stats lack, as the review form names it. */
export type MissingFigure = 'games'

const count = (v: unknown): number => {
  const n = Number(v)
  return Number.isFinite(n) ? n : 0
}

/** The figures a saved stats record lacks: the games played left at 0. */
export function missingFigures(stats: Record<string, unknown> | null | undefined): MissingFigure[] {
  if (!stats) return []
  return count(stats.games_played ?? stats.total_games) <= 0 ? ['games'] : []
}

/** Whether the account's stats step is still to finish: no stats saved, or figures missing. */
export function statsIncomplete(user: Pick<User, 'sk_stats_uploaded' | 'stats_data'>): boolean {
  return !user.sk_stats_uploaded || missingFigures(user.stats_data).length > 0
}
