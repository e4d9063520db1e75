// The lots already decided: players sold (to whom, for how much) and players left unsold.
import type { ReactNode } from 'react'
import type { Sale, Unsold } from '../types'
import { credits } from './bits'

export function SoldList({ sold, action }: { sold: Sale[]; action?: (s: Sale) => ReactNode }) {
  if (!sold.length) return <p className="muted">Nobody sold yet.</p>
  return (
    <ol className="result-list" aria-label="Sold players, latest first" data-testid="sold-list">
      {[...sold].reverse().map((s) => (
        <li key={s.lot_id}>
          <span className="team-chip">{s.team}</span>
          <span className="result-name">{s.player.name}</span>
          <span className="roster-tier">T{s.player.tier}</span>
          <strong className="result-price">{credits(s.price)}</strong>
          {action ? <span className="result-action">{action(s)}</span> : null}
        </li>
      ))}
    </ol>
  )
}

export function UnsoldList({ unsold }: { unsold: Unsold[] }) {
  if (!unsold.length) return <p className="muted">No player unsold.</p>
  return (
    <ol className="result-list" aria-label="Unsold players, latest first" data-testid="unsold-list">
      {[...unsold].reverse().map((u) => (
        <li key={u.lot_id}>
          <span className="team-chip team-chip-none">–</span>
          <span className="result-name">{u.player.name}</span>
          <span className="roster-tier">T{u.player.tier}</span>
          <span className="muted result-price">back in the pool</span>
        </li>
      ))}
    </ol>
  )
}
