import type { ReactNode } from 'react'
import { KartImage } from '@/components/ui/kart-image'
import type { CardStats } from '../types'

/** The player's profile card after an upload (docs/site.md, "Pages"). Actions come from the caller. */
export function StatsCard({ stats, actions, note }: { stats: CardStats; actions?: ReactNode; note?: ReactNode }) {
  const rows: [string, ReactNode][] = [
    ['K/D ratio', stats.kd],
    // 0 is a screenshot that did not show games (the game's Stats tab does not): unknown, not none.
    ['Games played', stats.games > 0 ? stats.games : '—'],
    ['Level', stats.level],
    // The server's `category` is the player's tier; Category is Solo, Duo or Squad on the site.
    ['Tier', stats.category ?? '—'],
    ['Kills', stats.kills],
    ['Deaths', stats.deaths],
    ['SKID', stats.skid || 'N/A'],
  ]
  return (
    <article className="stats-card" aria-label={`Stats of ${stats.name}`}>
      <KartImage src={stats.cartImage} alt={`${stats.name}'s kart`} className="stats-kart" />
      <h3 className="stats-name">{stats.name}</h3>
      <dl className="stats-grid">
        {rows.map(([k, v]) => (
          <div key={k} className="stat">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {note}
      {actions ? <div className="stats-actions">{actions}</div> : null}
    </article>
  )
}
