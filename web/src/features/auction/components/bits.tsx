// Small pieces the auction's screens share.
import type { LeagueTeam } from '../types'

/**
 * "1,700 cr". Credits are whole numbers, grouped by threes with commas as en-GB writes them, here
 * by hand: the page's first Intl.NumberFormat loads the browser's locale data, a task of its own
 * of about 20 ms (80 ms on a slow phone) while the page starts.
 */
export function credits(n: number) {
  const [whole, fraction] = String(n).split('.')
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''} cr`
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
