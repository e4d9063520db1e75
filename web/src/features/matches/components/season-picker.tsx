import { useId } from 'react'
import { useSeasons } from '../api/league'
import type { Season } from '../types'

export function seasonLabel(s: Pick<Season, 'name' | 'season' | 'status'>): string {
  const n = s.season ? `Season ${s.season} · ` : ''
  return `${n}${s.name}${s.status === 'completed' ? ' (completed)' : ''}`
}

/** Past seasons stay browsable: picks which tournament the page shows. */
export function SeasonPicker({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const id = useId()
  const { data } = useSeasons()
  if (!data || data.length < 2) return null
  return (
    <div className="season-picker field">
      <label htmlFor={id}>Season</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {data.some((s) => s.name === value) ? null : <option value={value}>{value}</option>}
        {data.map((s) => (
          <option key={s.name} value={s.name}>
            {seasonLabel(s)}
          </option>
        ))}
      </select>
    </div>
  )
}
