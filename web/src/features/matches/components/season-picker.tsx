import { useId, useMemo } from 'react'
import { seasonNames } from '@/lib/season-name'
import { useSeasons } from '../api/league'

/**
 * Past seasons stay browsable: picks which tournament the page shows. It is there from the first
 * render, holding the shown season while the list loads (and when there is no other season to
 * pick), so the page's head keeps its height and nothing below it moves when the list arrives.
 */
export function SeasonPicker({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const id = useId()
  const data = useSeasons().data
  const names = useMemo(() => seasonNames(data ?? []), [data])
  return (
    <div className="season-picker field">
      <label htmlFor={id}>Season</label>
      <select id={id} value={value} disabled={!data || data.length < 2} onChange={(e) => onChange(e.target.value)}>
        {data?.some((s) => s.name === value) ? null : <option value={value}>{value}</option>}
        {data?.map((s) => (
          <option key={s.name} value={s.name}>
            {names.get(s.name)}
            {s.status === 'completed' ? ' (completed)' : ''}
          </option>
        ))}
      </select>
    </div>
  )
}
