// The lots already decided: players sold (to whom, for how much) and players left unsold.
import { memo, type ReactNode } from 'react'
import type { Sale, Unsold } from '../types'
import { credits } from './bits'

// Lists and rows are memoised: a bid changes neither list, and a sale adds one row, so a live
// event renders only what it changed (the reducer keeps untouched entries by reference).
const SoldRow = memo(function SoldRow({ sale: s, action }: { sale: Sale; action?: (s: Sale) => ReactNode }) {
  return (
    <li>
      <span className="team-chip">{s.team}</span>
      <span className="result-name">{s.player.name}</span>
      <span className="roster-tier">T{s.player.tier}</span>
      <strong className="result-price">{credits(s.price)}</strong>
      {action ? <span className="result-action">{action(s)}</span> : null}
    </li>
  )
})

export const SoldList = memo(function SoldList({ sold, action }: { sold: Sale[]; action?: (s: Sale) => ReactNode }) {
  if (!sold.length) return <p className="muted">Nobody sold yet.</p>
  return (
    <ol className="result-list" aria-label="Sold players, latest first" data-testid="sold-list">
      {[...sold].reverse().map((s) => (
        <SoldRow key={s.lot_id} sale={s} action={action} />
      ))}
    </ol>
  )
})

const UnsoldRow = memo(function UnsoldRow({ entry: u }: { entry: Unsold }) {
  return (
    <li>
      <span className="team-chip team-chip-none">–</span>
      <span className="result-name">{u.player.name}</span>
      <span className="roster-tier">T{u.player.tier}</span>
      <span className="muted result-price">back in the pool</span>
    </li>
  )
})

export const UnsoldList = memo(function UnsoldList({ unsold }: { unsold: Unsold[] }) {
  if (!unsold.length) return <p className="muted">No player unsold.</p>
  return (
    <ol className="result-list" aria-label="Unsold players, latest first" data-testid="unsold-list">
      {[...unsold].reverse().map((u) => (
        <UnsoldRow key={u.lot_id} entry={u} />
      ))}
    </ol>
  )
})
