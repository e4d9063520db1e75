// Small pieces the auction's screens share.
import type { LeagueTeam, PlayerRef } from '../types'

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

/** What the auction says of a player's figures: "K/D 1.85 · 420 games · level 31", or that the profile is hidden. */
export function figures(p: Pick<PlayerRef, 'kd' | 'games_played' | 'level' | 'hidden'>, { games = true, level = true } = {}) {
  if (p.hidden) return 'Profile hidden'
  return [`K/D ${Number(p.kd).toFixed(2)}`, games ? `${p.games_played} games` : '', level ? `level ${p.level}` : '']
    .filter(Boolean)
    .join(' · ')
}

export function teamTitle(t: Pick<LeagueTeam, 'id' | 'name'>) {
  const base = `Team ${t.id}`
  const name = t.name?.trim()
  return !name || name.toLowerCase() === base.toLowerCase() ? base : `${base} · ${name}`
}
