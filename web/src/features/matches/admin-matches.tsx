// /admin/matches: the organisers' tools for a season's matches — fixtures (made, reset, made again),
// the disputes queue, rulings and corrections (audited by the server), the sides that did not check in
// (forfeited in one click, never by themselves), teams withdrawn, and the move to completed once
// crowned. Panels of other features (the phase, rosters, substitutes) come in through `panels`.
import { useState, type ReactNode } from 'react'
import { Link } from '@/lib/router'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { EmptyState } from '@/components/ui/empty-state'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { useSession } from '@/lib/auth'
import { useCompleteSeason } from './api/complete-season'
import { useForfeitFor } from './api/forfeit-for'
import { useAllMatches, useBracket, useSeasons } from './api/league'
import { phaseName, seasonName, seasonNames } from '@/lib/season-name'
import { useSetSeeds } from './api/set-seeds'
import { ChampionBanner } from './components/bracket-view'
import { ResultForm } from './components/result-form'
import { StatusBadge } from './components/status-badge'
import { BY_ORGANISERS, formatSummary, moveSeed } from './lib/bracket-model'
import { Fixtures } from './components/admin-fixtures'
import { TeamsAdmin } from './components/admin-teams'
import { resultsOf } from './lib/undo-model'
import { useNow } from '@/lib/use-now'
import { clockTime } from '@/lib/time'
import { isOverdue, matchTime, needsRuling, noShows, roundTitle, stillToPlay, teamName } from './lib/match-model'
import type { Match, Seed } from './types'
import { can } from '@/lib/authorization'
import { PageHead } from '@/components/layout/page-head'

/** The seeds' order before the fixtures: strongest first unless the organisers move teams; saved as a whole. */
function Seeds({ tournament, phase, seeds, seededBy }: { tournament: string; phase: string; seeds: Seed[]; seededBy: string }) {
  const server = seeds.map((s) => s.team.id)
  const [order, setOrder] = useState<string[] | null>(null)
  const setSeeds = useSetSeeds(tournament)
  const busy = setSeeds.isPending
  // A local order counts while it names the server's teams; a change of teams meanwhile drops it.
  const shown = order && [...order].sort().join() === [...server].sort().join() ? order : server
  const byId = new Map(seeds.map((s) => [s.team.id, s]))
  const dirty = shown.join() !== server.join()
  const editable = phase === 'matches' && !busy
  function save(next: string[]) {
    setSeeds.mutate(next, { onSuccess: () => setOrder(null) })
  }
  return (
    <section className="match-panel" aria-label="Seeds">
      <h2>Seeds</h2>
      <p className="muted small">
        Seeded by {seededBy || 'strength'}. Move teams up or down and save: the fixtures are made in this order, seed 1 first.
      </p>
      {phase !== 'matches' ? <p className="msg msg-info">Seeds are reordered in the matches phase.</p> : null}
      <ol className="seed-list">
        {shown.map((id, i) => {
          const s = byId.get(id)
          return (
            <li key={id} className="seed-row" data-team={id}>
              <span className="seed-no">{i + 1}</span>
              <span className="team-letter-sm" aria-hidden="true">
                {id}
              </span>
              <span className="seed-name">
                {teamName(s?.team ?? { id, name: '' })}
                {s ? <small className="muted"> · K/D {s.strength.toFixed(2)}</small> : null}
              </span>
              <span className="seed-move">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Move team ${id} up`}
                  disabled={!editable || i === 0}
                  onClick={() => setOrder(moveSeed(shown, i, i - 1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Move team ${id} down`}
                  disabled={!editable || i === shown.length - 1}
                  onClick={() => setOrder(moveSeed(shown, i, i + 1))}
                >
                  ↓
                </button>
              </span>
            </li>
          )
        })}
      </ol>
      <div className="row-actions">
        <ActionButton className="btn btn-primary btn-sm" disabled={!editable || !dirty} onClick={() => save(shown)}>
          {busy ? 'Saving…' : 'Save the order'}
        </ActionButton>
        {dirty ? (
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => setOrder(null)}>
            Undo
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={!editable || dirty || seededBy !== BY_ORGANISERS}
          onClick={() => save([])}
        >
          Back to strength
        </button>
      </div>
      <ErrorMessage error={setSeeds.error} fallback="The seeds could not be saved." />
    </section>
  )
}

/** A queued match: its link, round and status, and what may be done to it. */
function QueueHead({ match, children }: { match: Match; children?: ReactNode }) {
  return (
    <div className="queue-head">
      <Link to={`/matches/${match.id}`} className="queue-title">
        Match {match.id}: {teamName(match.team1)} v {teamName(match.team2)}
      </Link>
      <span className="muted small">{roundTitle({ number: match.round_number, stage: match.stage })}</span>
      <StatusBadge match={match} />
      {children}
    </div>
  )
}

function MatchRow({ match, action }: { match: Match; action: string }) {
  const [open, setOpen] = useState(false)
  return (
    <li className="queue-item" data-match-id={match.id} data-status={match.status}>
      <QueueHead match={match}>
        <button type="button" className="btn btn-ghost btn-sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Close' : action}
        </button>
      </QueueHead>
      {match.status === 'disputed' ? <p className="msg msg-alert">Disputed: {match.dispute_reason}</p> : null}
      {match.status === 'reported' ? (
        <p className="muted small">
          Team {match.reported_by} reported team {match.report?.winner} as winner; not yet confirmed.
        </p>
      ) : null}
      {match.proof && open ? (
        <a href={match.proof} target="_blank" rel="noreferrer" className="small">
          The end-of-match screenshot
        </a>
      ) : null}
      {open ? <ResultForm key={match.updated_at} match={match} mode="resolve" onDone={() => setOpen(false)} /> : null}
    </li>
  )
}

/**
 * A side that does not turn up: the organiser forfeits it, the other side wins. A side that did not
 * check in by the match's time is shown as such, its forfeit one click.
 */
function OpenMatchRow({ match }: { match: Match }) {
  const now = useNow()
  const forfeit = useForfeitFor(match)
  const sides = [match.team1, match.team2].filter((t) => !!t)
  const late = noShows(match, now)
  return (
    <li className="queue-item" data-match-id={match.id} data-status={match.status} data-no-show={late.join('') || undefined}>
      <QueueHead match={match} />
      {match.scheduled_at ? (
        isOverdue(match) ? (
          <p className="msg msg-alert">Overdue: it was due {matchTime(match.scheduled_at)} and has no result yet.</p>
        ) : (
          <p className="muted small">Due {matchTime(match.scheduled_at)}</p>
        )
      ) : null}
      {match.scheduled_at ? (
        <p className="small checkin-line">
          Check-in:{' '}
          {sides.map((t, i) => (
            <span key={t.id}>
              {i > 0 ? ' · ' : ''}team {t.id}{' '}
              {match.checked_in?.[t.id] ? (
                <span className="status-pill status-checked-in">✓ {clockTime(match.checked_in[t.id])}</span>
              ) : late.includes(t.id) ? (
                <span className="status-pill status-no-show">no check-in</span>
              ) : (
                <span className="muted">not yet</span>
              )}
            </span>
          ))}
        </p>
      ) : null}
      {late.length ? (
        <p className="msg msg-alert">
          {late.length === 2 ? 'Neither side checked in' : `Team ${late[0]} did not check in`} by the match’s time.
        </p>
      ) : null}
      <div className="row-actions">
        {late.length === 1 ? (
          <ActionButton className="btn btn-danger btn-sm" pending={forfeit.isPending} pendingLabel="Forfeiting…" onClick={() => forfeit.mutate(late[0])}>
            {`Forfeit team ${late[0]}: no check-in`}
          </ActionButton>
        ) : null}
        {sides
          .filter((t) => late.length !== 1 || t.id !== late[0])
          .map((t) => (
            <ConfirmAction
              key={t.id}
              label={`Team ${t.id} forfeits`}
              question={`Team ${t.id} forfeits match ${match.id}? The other side wins, with no kills counted.`}
              confirmLabel="Yes, forfeit"
              cancelLabel="Cancel"
              busyLabel="Forfeiting…"
              className="btn btn-danger-ghost btn-sm"
              onConfirm={() => forfeit.mutateAsync(t.id)}
            />
          ))}
      </div>
      <ErrorMessage error={forfeit.error} fallback="The forfeit could not be recorded." />
    </li>
  )
}

function Complete({ tournament, phase, champion }: { tournament: string; phase: string; champion: boolean }) {
  const complete = useCompleteSeason(tournament)
  if (phase === 'completed') return <p className="msg msg-success">The season is completed; its badges are awarded.</p>
  return (
    <div>
      <ConfirmAction
        label="Complete the season"
        question="Complete the season? The champion’s players get the Season Winner badge and the top killer the Red Cap."
        confirmLabel="Complete"
        cancelLabel="Not yet"
        busyLabel="Completing…"
        className="btn btn-primary"
        disabled={!champion || phase !== 'matches'}
        onConfirm={() => complete.mutateAsync()}
      />
      {!champion ? <p className="field-hint">Possible once the bracket has its champion.</p> : null}
      <ErrorMessage error={complete.error} fallback="The season could not be completed." />
    </div>
  )
}

export function AdminMatches({
  defaultTournament,
  panels,
}: {
  defaultTournament: string
  /** More panels for the season shown, with its phase (the substitutes' requests). */
  panels?: (tournament: string, phase: string) => ReactNode
}) {
  const { user, isLoading } = useSession()
  const seasons = useSeasons()
  const [picked, setPicked] = useState('')
  const tournament = picked || defaultTournament
  const admin = can(user, 'organise', tournament)
  const bracket = useBracket(admin ? tournament : '')
  const all = useAllMatches(admin ? tournament : '')

  if (isLoading) return <Spinner />
  if (!admin) {
    return (
      <div className="page">
        <EmptyState title="Organisers only.">Sign in with an organiser’s account to run the matches.</EmptyState>
      </div>
    )
  }
  const season = seasons.data?.find((s) => s.name === tournament)
  const phase = season?.status ?? ''
  const name = seasonName(season, tournament)
  const names = seasonNames(seasons.data ?? [])
  const queue = needsRuling(all.data ?? [])
  const completed = (all.data ?? []).filter((m) => m.status === 'completed')
  const toPlay = stillToPlay(all.data ?? [])
  const overdue = toPlay.filter((m) => isOverdue(m)).length
  const unchecked = toPlay.filter((m) => noShows(m).length > 0).length
  const hasFixtures = (bracket.data?.rounds.length ?? 0) > 0

  return (
    <div className="page admin-matches">
      <PageHead
        kicker="Organisers"
        title={<>Matches · {name}</>}
        meta={
          <p className="muted page-meta">
            <strong data-testid="phase">{phaseName(phase) || '…'}</strong>
            {bracket.data?.format && hasFixtures ? ` · ${formatSummary(bracket.data.format, bracket.data.options)}` : ''}
          </p>
        }
      >
        {seasons.data && seasons.data.length > 1 ? (
          <div className="page-actions field">
            <label htmlFor="admin-season">Season</label>
            <select id="admin-season" value={tournament} onChange={(e) => setPicked(e.target.value)}>
              {seasons.data.map((s) => (
                <option key={s.name} value={s.name}>
                  {names.get(s.name)} · {phaseName(s.status)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </PageHead>

      {bracket.data?.champion ? <ChampionBanner champion={bracket.data.champion} season={name} /> : null}

      <div className="admin-grid">
        <Fixtures
          tournament={tournament}
          phase={phase}
          hasFixtures={hasFixtures}
          teams={(bracket.data?.seeds ?? []).filter((s) => !s.withdrawn).length}
          results={resultsOf(all.data ?? [])}
        />
        {!hasFixtures && (bracket.data?.seeds?.length ?? 0) > 0 ? (
          <Seeds tournament={tournament} phase={phase} seeds={(bracket.data?.seeds ?? []).filter((s) => !s.withdrawn)} seededBy={bracket.data?.seeded_by ?? ''} />
        ) : null}

        <section className="match-panel" aria-label="Disputes and reports">
          <h2>Disputes and reports ({queue.length})</h2>
          {queue.length === 0 ? (
            <p className="muted">Nothing to rule on.</p>
          ) : (
            <ul className="queue">
              {queue.map((m) => (
                <MatchRow key={m.id} match={m} action={m.status === 'disputed' ? 'Resolve' : 'Rule'} />
              ))}
            </ul>
          )}
        </section>

        <section className="match-panel" aria-label="Matches to play">
          <h2>
            To play ({toPlay.length}){overdue ? <span className="overdue-count"> · {overdue} overdue</span> : null}
            {unchecked ? <span className="overdue-count"> · {unchecked} without a check-in</span> : null}
          </h2>
          <p className="muted small">
            Each captain checks in during the hour before the match’s time. A side that does not turn up can be forfeited here (audited);
            nothing is forfeited by itself.
          </p>
          {toPlay.length === 0 ? (
            <p className="muted">No match is waiting to be played.</p>
          ) : (
            <ul className="queue">
              {toPlay.map((m) => (
                <OpenMatchRow key={m.id} match={m} />
              ))}
            </ul>
          )}
        </section>

        <TeamsAdmin tournament={tournament} phase={phase} seeds={bracket.data?.seeds ?? []} format={bracket.data?.format ?? ''} matches={all.data ?? []} />

        {panels?.(tournament, phase)}

        <section className="match-panel" aria-label="Completed results">
          <h2>Completed results ({completed.length})</h2>
          <p className="muted small">
            A correction is audited; a winner can change only while the winner’s next match is unplayed.
          </p>
          {completed.length === 0 ? (
            <p className="muted">No results yet.</p>
          ) : (
            <ul className="queue">
              {completed.map((m) => (
                <MatchRow key={m.id} match={m} action="Correct" />
              ))}
            </ul>
          )}
        </section>

        <section className="match-panel" aria-label="Season">
          <h2>Season</h2>
          <Complete tournament={tournament} phase={phase} champion={!!bracket.data?.champion} />
        </section>
      </div>
    </div>
  )
}
