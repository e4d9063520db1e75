import { memo, useMemo } from 'react'
import { LiveBadge } from '@/components/ui/live-badge'
import { Link } from '@/lib/router'
import { EmptyState } from '@/components/ui/empty-state'
import { TrophyIcon } from '@/components/ui/icons'
import { Spinner } from '@/components/ui/spinner'
import { useSession } from '@/lib/auth'
import { useBracket, useSeasonName } from '../api/league'
import { bracketSections, feeders, formatSummary, type Section, type ShownRound } from '../lib/bracket-model'
import { matchTime, shownStatus, teamName, teamTotals, walkoverLine } from '../lib/match-model'
import type { Match, TeamRef } from '../types'
import { SwissStandings } from './standings'
import { StatusBadge } from './status-badge'
import { can } from '@/lib/authorization'
import { CheerBar } from '@/components/cheers/cheer-bar'

function Side({ team, match, from, kills }: { team: TeamRef | null; match: Match; from?: string; kills?: number }) {
  const won = !!team && match.winner === team.id
  const lost = !!team && !!match.winner && match.winner !== team.id
  return (
    <span className={`match-side ${won ? 'is-winner' : ''} ${lost ? 'is-loser' : ''} ${team ? '' : 'is-tbd'}`}>
      <span className={`team-letter-sm ${team ? '' : 'is-tbd'}`} aria-hidden="true">
        {team?.id ?? '?'}
      </span>
      <span className="match-side-name">{team ? teamName(team) : (from ?? teamName(team))}</span>
      {won && match.forfeit ? (
        <span className="won-tag" role="img" aria-label={`${teamName(team)} won by walkover`} title="Won by walkover">
          W/O
        </span>
      ) : won ? (
        <span className="won-tag">Won</span>
      ) : null}
      {kills !== undefined ? (
        <span className="match-side-kills" data-testid="side-kills" aria-label={`${kills} kills`}>
          {kills}
        </span>
      ) : null}
    </span>
  )
}

/** A side's kills in the report (0 when none of its players scored), or undefined before one. */
const sideKills = (totals: ReturnType<typeof teamTotals>, team: TeamRef | null) => (totals && team ? (totals[team.id]?.kills ?? 0) : undefined)

const sameFrom = (a?: Record<number, string>, b?: Record<number, string>) => a === b || (a?.[1] === b?.[1] && a?.[2] === b?.[2])

/**
 * A match in the bracket; `from` says where each side not known yet comes from (by side, 1 and 2).
 * Memoised by the match (React Query keeps an unchanged match's object across refetches), so a live
 * update re-renders the cards it changed, not the whole bracket.
 */
export const MatchCard = memo(MatchCardView, (a, b) => a.match === b.match && sameFrom(a.from, b.from) && a.withdrawn === b.withdrawn)

const NONE: ReadonlySet<string> = new Set()

/** `withdrawn`: the teams that withdrew from the season, so a walkover says why in words. */
function MatchCardView({ match, from, withdrawn = NONE }: { match: Match; from?: Record<number, string>; withdrawn?: ReadonlySet<string> }) {
  // Kills each side once reported; the agreed time, else (played without one) when it was reported.
  const totals = teamTotals(match)
  const when = match.status === 'cancelled' ? null : (match.scheduled_at ?? (match.status === 'completed' ? match.reported_at : null))
  return (
    <Link to={`/matches/${match.id}`} className={`match-card status-${shownStatus(match)}`} data-match-id={match.id} data-status={match.status}>
      <span className="match-card-head">
        <span className="muted">Match {match.id}</span>
        <span className="match-card-badges">
          <LiveBadge matchId={match.id} />
          <StatusBadge match={match} />
        </span>
      </span>
      <Side team={match.team1} match={match} from={from?.[1]} kills={sideKills(totals, match.team1)} />
      <Side team={match.team2} match={match} from={from?.[2]} kills={sideKills(totals, match.team2)} />
      {match.forfeit && match.winner ? <span className="match-card-note">{walkoverLine(match, withdrawn)}</span> : null}
      {when ? (
        <time className="match-card-time" dateTime={when}>
          {matchTime(when)}
        </time>
      ) : null}
    </Link>
  )
}

/** The champion, crowned under the name the season goes by (its display name: `season`). */
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

type Drawn = { from: Map<number, Record<number, string>>; withdrawn: ReadonlySet<string> }

function RoundColumn({ shown, from, withdrawn }: { shown: ShownRound } & Drawn) {
  const r = shown.round
  return (
    <section className={`bracket-round${r ? '' : ' is-pending'}`} aria-label={shown.title}>
      <h4>{shown.title}</h4>
      {r ? (
        <ol>
          {r.matches.map((m) => (
            <li key={m.id}>
              <MatchCard match={m} from={from.get(m.id)} withdrawn={withdrawn} />
            </li>
          ))}
          {r.bye ? (
            <li className="bye-card" data-bye={r.bye.id}>
              <span className="team-letter-sm" aria-hidden="true">
                {r.bye.id}
              </span>
              <span>
                <strong>{teamName(r.bye)}</strong>
                <small className="muted">Bye: sits this round out, counted a win</small>
              </span>
            </li>
          ) : null}
        </ol>
      ) : (
        <p className="round-pending">{shown.pending}</p>
      )}
    </section>
  )
}

function BracketSection({ section, from, withdrawn }: { section: Section } & Drawn) {
  const rounds = (
    <>
      {/* A phone shows one round at a time: it says the others are beside it. */}
      {section.rounds.length > 1 ? (
        <p className="bracket-scroll-hint muted" aria-hidden="true">
          Swipe sideways for the later rounds →
        </p>
      ) : null}
      <div className="bracket-rounds">
        {section.rounds.map((r) => (
          <RoundColumn key={r.key} shown={r} from={from} withdrawn={withdrawn} />
        ))}
      </div>
    </>
  )
  if (!section.title) return rounds
  return (
    <section className={`bracket-section bracket-section-${section.key}`} aria-label={section.title} data-section={section.key}>
      <header className="bracket-section-head">
        <h3>{section.title}</h3>
        {section.note ? <p className="muted">{section.note}</p> : null}
      </header>
      {rounds}
    </section>
  )
}

/**
 * The fixtures round by round, each match's live status, and the champion once crowned: a double elimination
 * in its winners bracket, losers bracket and grand final; a Swiss stage's rounds beside its standings, then
 * its top cut.
 */
export function BracketView({ tournament, season }: { tournament: string; season?: string }) {
  const { data, isLoading, isError } = useBracket(tournament)
  const listed = useSeasonName(tournament)
  const { user } = useSession()
  const sections = useMemo(() => (data ? bracketSections(data) : []), [data])
  const from = useMemo(() => (data ? feeders(data) : new Map<number, Record<number, string>>()), [data])
  const seeds = data?.seeds
  const withdrawn = useMemo(() => new Set((seeds ?? []).filter((s) => s.withdrawn).map((s) => s.team.id)), [seeds])
  const organiser =
    can(user, 'organise', tournament) ? (
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
        They are made from the teams after the auction, seeded by strength unless the organisers order the seeds.
        {organiser}
      </EmptyState>
    )
  }
  const swiss = data.format === 'swiss'
  const drawn = sections.map((s) => <BracketSection key={s.key} section={s} from={from} withdrawn={withdrawn} />)
  return (
    <section className="bracket" aria-label="Bracket" data-format={data.format}>
      {data.champion ? <ChampionBanner champion={data.champion} season={season ?? listed} /> : null}
      <p className="muted bracket-meta">
        {formatSummary(data.format, data.options)}
        {data.seeded_by ? ` · seeded by ${data.seeded_by}` : ''}
      </p>
      {organiser}
      <CheerBar topic="bracket" label="Cheer the matches" />
      {swiss ? (
        <div className="swiss-layout">
          <SwissStandings tournament={tournament} cut={data.options?.top_cut ?? 0} />
          <div className="swiss-draw">{drawn}</div>
        </div>
      ) : (
        drawn
      )}
    </section>
  )
}
