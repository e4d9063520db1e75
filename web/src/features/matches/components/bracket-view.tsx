import { Link } from 'react-router'
import { EmptyState } from '@/components/ui/empty-state'
import { TrophyIcon } from '@/components/ui/icons'
import { Spinner } from '@/components/ui/spinner'
import { useSession } from '@/lib/auth'
import { useBracket } from '../api/league'
import { formatLabel, matchTime, roundTitle, teamName } from '../lib/match-model'
import type { Match, TeamRef } from '../types'
import { StatusBadge } from './status-badge'

function Side({ team, match }: { team: TeamRef | null; match: Match }) {
  const won = !!team && match.winner === team.id
  const lost = !!team && !!match.winner && match.winner !== team.id
  return (
    <span className={`match-side ${won ? 'is-winner' : ''} ${lost ? 'is-loser' : ''} ${team ? '' : 'is-tbd'}`}>
      <span className={`team-letter-sm ${team ? '' : 'is-tbd'}`} aria-hidden="true">
        {team?.id ?? '?'}
      </span>
      <span className="match-side-name">{teamName(team)}</span>
      {won ? <span className="won-tag">{match.forfeit ? 'W/O' : 'Won'}</span> : null}
    </span>
  )
}

export function MatchCard({ match }: { match: Match }) {
  return (
    <Link to={`/matches/${match.id}`} className={`match-card status-${match.status}`} data-match-id={match.id} data-status={match.status}>
      <span className="match-card-head">
        <span className="muted">Match {match.id}</span>
        <StatusBadge status={match.status} />
      </span>
      <Side team={match.team1} match={match} />
      <Side team={match.team2} match={match} />
      {match.scheduled_at && match.status !== 'completed' && match.status !== 'cancelled' ? (
        <time className="match-card-time" dateTime={match.scheduled_at}>
          {matchTime(match.scheduled_at)}
        </time>
      ) : null}
    </Link>
  )
}

export function ChampionBanner({ champion, season }: { champion: TeamRef; season?: string }) {
  return (
    <div className="champion-banner" role="status" data-champion={champion.id}>
      <TrophyIcon />
      <span>
        <small>{season ? `${season} champion` : 'Champion'}</small>
        <strong>{teamName(champion)}</strong>
      </span>
    </div>
  )
}

/** The fixtures round by round, each match's live status, and the champion once crowned. */
export function BracketView({ tournament }: { tournament: string }) {
  const { data, isLoading, isError } = useBracket(tournament)
  const { user } = useSession()
  const organiser =
    user?.role === 'admin' ? (
      <p className="bracket-admin">
        <Link to="/admin/matches" className="btn btn-ghost btn-sm">
          Run the matches
        </Link>
      </p>
    ) : null
  if (isLoading) return <Spinner label="Loading the bracket" />
  if (isError || !data) return <EmptyState title="The bracket could not be loaded." />
  if (data.rounds.length === 0) {
    return (
      <EmptyState title="The fixtures appear when the organisers generate them.">
        They are made from the teams after the auction, seeded by strength.
        {organiser}
      </EmptyState>
    )
  }
  return (
    <section className="bracket" aria-label="Bracket" data-format={data.format}>
      {data.champion ? <ChampionBanner champion={data.champion} season={tournament} /> : null}
      <p className="muted bracket-meta">
        {formatLabel(data.format)}
        {data.seeded_by ? ` · seeded by ${data.seeded_by}` : ''}
      </p>
      {organiser}
      <div className="bracket-rounds">
        {data.rounds.map((r) => (
          <section key={`${r.stage}-${r.number}`} className="bracket-round" aria-label={roundTitle(r)}>
            <h3>{roundTitle(r)}</h3>
            <ol>
              {r.matches.map((m) => (
                <li key={m.id}>
                  <MatchCard match={m} />
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
    </section>
  )
}
