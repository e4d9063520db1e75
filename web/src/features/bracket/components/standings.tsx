import { EmptyState } from '@/components/ui/empty-state'

/** Team standings; the league API that fills it is not there yet, so an honest empty state. */
export function PointsTable() {
  return (
    <EmptyState title="The Points Table appears when the first matches are played.">
      Teams earn placement and kill points in every completed match; ties are broken by wins, then total kills.
    </EmptyState>
  )
}

/** The top-killer leaderboard (the Red Cap award). */
export function RedCap() {
  return (
    <EmptyState title="The Red Cap race starts with the first completed match.">
      The Red Cap goes to the player with the most kills in the tournament’s completed matches; ties go to the one with
      fewer deaths.
    </EmptyState>
  )
}
