// Small pieces the auction's screens share.
import type { LeagueTeam } from '../types'

const fmt = new Intl.NumberFormat('en-GB')

/** "1,700 cr". */
export function credits(n: number) {
  return `${fmt.format(n)} cr`
}

export function TierBadge({ tier }: { tier: number }) {
  return (
    <span className={`tier-badge tier-${tier}`} title={`Tier ${tier} (1 is the strongest)`}>
      Tier {tier}
    </span>
  )
}

export function teamTitle(t: Pick<LeagueTeam, 'id' | 'name'>) {
  const base = `Team ${t.id}`
  const name = t.name?.trim()
  return !name || name.toLowerCase() === base.toLowerCase() ? base : `${base} · ${name}`
}
