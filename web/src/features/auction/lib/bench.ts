// What a team may still sign as substitutes, as the server's rules have it (a bench of `max`, asked
// for or signed, within the purse left less what its pending requests would cost). The server
// decides; this only chooses what to offer.
import type { Bench, LeagueTeam } from '../types'

export function benchOf(bench: Pick<Bench, 'max' | 'requests'>, team: Pick<LeagueTeam, 'id' | 'purse_left' | 'substitutes'>) {
  const pending = bench.requests.filter((r) => r.team === team.id && r.status === 'pending')
  const used = (team.substitutes?.length ?? 0) + pending.length
  const purse = team.purse_left - pending.reduce((n, r) => n + r.price, 0)
  return {
    pending,
    /** Places left on the bench, counting what was asked for. */
    room: Math.max(0, bench.max - used),
    /** What the team may spend on one more signing. */
    purse,
    /** Why the team may not ask for a player at `price`, or ''. */
    whyNot(price: number): string {
      if (used >= bench.max) return `Your bench is full: ${bench.max} substitutes, signed or asked for.`
      if (price > purse) return `Over purse: ${purse} credits left for a signing.`
      return ''
    },
  }
}
