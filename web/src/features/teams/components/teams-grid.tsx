import { Avatar } from '@/components/ui/avatar'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useTeams, type Team } from '../api/teams'
import { TeamCard } from './team-card'

export function TeamsGrid({ tournament }: { tournament: string }) {
  const { data, isLoading, isError } = useTeams(tournament)
  if (isLoading) return <Spinner label="Loading teams" />
  if (isError || !data) return <EmptyState title="The teams could not be loaded." />
  if (data.length === 0) return <EmptyState title="Teams are formed in the captains’ auction after registration closes." />
  return (
    <div className="team-grid">
      {data.map((t) => (
        <TeamCard key={t.id} team={t} />
      ))}
    </div>
  )
}

/** "Team A", or "Team A · Thunder" when the team has a name of its own: the name once. */
export function teamLabel(t: Pick<Team, 'letter' | 'name'>) {
  const base = `Team ${t.letter}`
  const name = t.name?.trim()
  return !name || name.toLowerCase() === base.toLowerCase() ? base : `${base} · ${name}`
}

/** Home: the captains of the eight teams. */
export function TeamCaptains({ tournament }: { tournament: string }) {
  const { data } = useTeams(tournament)
  const captains = (data ?? []).filter((t) => t.captain)
  if (!data) return null
  if (captains.length === 0) return <EmptyState title="Captains are announced before the auction." />
  return (
    <ul className="captain-list">
      {captains.map((t) => (
        <li key={t.id} className="captain-chip" title={`${t.captain!.name}, captain of ${teamLabel(t)}`}>
          <Avatar src={t.captain!.image} name={t.captain!.name} size={48} />
          <span>
            <strong>{t.captain!.name}</strong>
            <small>{teamLabel(t)}</small>
          </span>
        </li>
      ))}
    </ul>
  )
}

/** Home: the registered teams, with how full each roster is. */
export function RegisteredTeams({ tournament }: { tournament: string }) {
  const { data } = useTeams(tournament)
  if (!data) return null
  if (data.length === 0) return <EmptyState title="No teams yet." />
  return (
    <ul className="team-list">
      {data.map((t) => (
        <li key={t.id}>
          <span className="team-letter-sm" aria-hidden="true">
            {t.letter}
          </span>
          <span className="team-list-name">
            {t.name || `Team ${t.letter}`}
            <small>{t.players.length}/5 players</small>
          </span>
        </li>
      ))}
    </ul>
  )
}
