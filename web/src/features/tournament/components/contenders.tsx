import { Avatar } from '@/components/ui/avatar'
import { EmptyState } from '@/components/ui/empty-state'
import { useContenders } from '../api/registrations'
import { formatKd } from '../lib/registrations-reducer'

/** The strongest registered players by K/D (ties by games played). */
export function Contenders({ tournament, count = 6 }: { tournament: string; count?: number }) {
  const { data } = useContenders(tournament, count)
  // A hidden profile shows no K/D to be ranked by.
  const top = [...(data ?? [])]
    .filter((p) => !p.hidden)
    .sort((a, b) => Number(b.kd) - Number(a.kd) || Number(b.games_played) - Number(a.games_played))
    .slice(0, count)
  if (!data) return null
  if (top.length === 0) return <EmptyState title="Contenders appear as players register." />
  return (
    <ol className="contenders">
      {top.map((p, i) => (
        <li key={p.id} className="contender">
          <span className="rank" aria-label={`Rank ${i + 1}`}>
            #{i + 1}
          </span>
          <Avatar src={p.image} name={p.name} size={44} />
          <span className="contender-name">{p.name}</span>
          <span className="contender-kd">
            {formatKd(p.kd)} <small>K/D</small>
          </span>
        </li>
      ))}
    </ol>
  )
}
