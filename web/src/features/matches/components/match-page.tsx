import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { MatchStreams } from './match-streams'
import { LiveBadge } from '@/components/ui/live-badge'
import { Link } from '@/lib/router'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { EmptyState } from '@/components/ui/empty-state'
import { ActionButton, ErrorMessage, SubmitButton, TextField, TextForm } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { lastFailure } from '@/lib/mutations'
import { clockTime, dayTime } from '@/lib/time'
import { useNow } from '@/lib/use-now'
import { useMatchCheckIn } from '../api/check-in'
import { useConfirmResult } from '../api/confirm-result'
import { useDisputeResult } from '../api/dispute-result'
import { useForfeit } from '../api/forfeit'
import { useLeagueTeams, useMatch } from '../api/league'
import { usePostRoom } from '../api/post-room'
import { useSaveLineup } from '../api/save-lineup'
import { useSetTime } from '../api/set-time'
import {
  captainedTeam,
  fromLocalInput,
  isOpen,
  isOverdue,
  KARTS_PER_SIDE,
  matchActions,
  matchCheckin,
  noShows,
  matchTime,
  memberNames,
  roundTitle,
  sideOf,
  teamName,
  timeLeft,
  toLocalInput,
  untilMatch,
  teamTotals,
} from '../lib/match-model'
import type { Match, TeamRef } from '../types'
import { ProposalPanel } from './proposal-panel'
import { ResultForm } from './result-form'
import { StatusBadge } from './status-badge'
import { can as allowed } from '@/lib/authorization'
import { PageHead } from '@/components/layout/page-head'
import { CheerBar } from '@/components/cheers/cheer-bar'

function Panel({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={`match-panel ${className}`} aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

function TeamColumn({ team, match }: { team: TeamRef | null; match: Match }) {
  const lineup = team ? (match.lineups?.[team.id] ?? []) : []
  const members = team ? (match.members?.[team.id] ?? []) : []
  const won = !!team && match.winner === team.id
  return (
    <div className={`match-team ${won ? 'is-winner' : ''}`} data-team={team?.id}>
      <h2>
        <span className="team-letter-sm" aria-hidden="true">
          {team?.id ?? '?'}
        </span>{' '}
        {teamName(team)}
        {won ? <span className="won-tag">Winner</span> : null}
      </h2>
      {!team ? (
        <p className="muted">Waits for the winner of an earlier match.</p>
      ) : lineup.length ? (
        <>
          <p className="muted small">Lineup</p>
          <ul className="lineup" aria-label={`Team ${team.id} lineup`}>
            {lineup.map((p) => (
              <li key={p.user_id}>
                {p.name}
                {members.find((m) => m.user_id === p.user_id)?.substitute ? <span className="sub-tag">Sub</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted small">
          {match.status === 'completed' || match.status === 'cancelled'
            ? 'No lineup was picked.'
            : `No lineup yet${members.length ? ` · ${members.length} players to choose from` : ''}.`}
        </p>
      )}
    </div>
  )
}

function RoomPanel({ match, canPost }: { match: Match; canPost: boolean }) {
  const [room, setRoom] = useState(match.room)
  const post = usePostRoom(match.id)
  const isLink = /^https?:\/\//i.test(match.room)
  function submit(e: FormEvent) {
    e.preventDefault()
    post.mutate(room)
  }
  return (
    <Panel title="Room" className="room-panel">
      {match.room ? (
        <p className="room-code" data-testid="room">
          {isLink ? (
            <a href={match.room} target="_blank" rel="noreferrer">
              {match.room}
            </a>
          ) : (
            <code>{match.room}</code>
          )}
        </p>
      ) : match.room_set ? (
        <p className="muted">The home captain has posted the room; the two sides and the organisers see it.</p>
      ) : (
        <p className="muted">The home captain (team {match.team1?.id ?? '?'}) posts the Smash Karts private room here.</p>
      )}
      {canPost ? (
        <form className="inline-form" onSubmit={submit}>
          <TextField id={`room-${match.id}`} label="Private room code or link" value={room} maxLength={200} onChange={(e) => setRoom(e.target.value)} />
          <SubmitButton pending={post.isPending} disabled={!room.trim()}>
            {match.room ? 'Change room' : 'Post room'}
          </SubmitButton>
          <ErrorMessage error={post.error} fallback="The room could not be posted." />
        </form>
      ) : null}
    </Panel>
  )
}

/**
 * The match's time. Proposals ("Proposed times") are how the captains agree one; setting it here is
 * the shortcut: an organiser's at once, the home captain's only for a time both sides agreed already,
 * folded under "Set it now" so proposals stay the way by default. One line says which applies.
 */
function TimePanel({ match, canSet, admin }: { match: Match; canSet: boolean; admin: boolean }) {
  const [value, setValue] = useState(toLocalInput(match.scheduled_at))
  const [invalid, setInvalid] = useState('')
  const setTime = useSetTime(match.id)
  function submit(e: FormEvent) {
    e.preventDefault()
    const at = fromLocalInput(value)
    setInvalid(at ? '' : 'Choose a day and a time.')
    if (at) setTime.mutate(at)
  }
  function clear() {
    setInvalid('')
    setTime.mutate(null, { onSuccess: () => setValue('') })
  }
  const form = (
    <form className="inline-form" onSubmit={submit}>
      <TextField id={`time-${match.id}`} label="Day and time (your time zone)" type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} />
      <div className="row-actions">
        <SubmitButton pending={setTime.isPending} disabled={!value}>
          Set time
        </SubmitButton>
        {match.scheduled_at ? (
          <ActionButton className="btn btn-ghost" pending={setTime.isPending} onClick={clear}>
            Clear time
          </ActionButton>
        ) : null}
      </div>
      <ErrorMessage error={invalid || setTime.error} fallback={setTime.variables === null ? 'The time could not be cleared.' : 'The time could not be set.'} />
    </form>
  )
  return (
    <Panel title="Match time" className="time-panel">
      {match.scheduled_at ? (
        <p className="match-time" data-testid="match-time">
          <time dateTime={match.scheduled_at}>{matchTime(match.scheduled_at)}</time>{' '}
          <span className="muted small">({untilMatch(match.scheduled_at)}, your time)</span>
        </p>
      ) : (
        <p className="muted">Not set yet: the captains agree one in “Proposed times”, or an organiser sets it.</p>
      )}
      {isOverdue(match) ? (
        <p className="msg msg-alert">Past its time with no result yet: a captain reports it, or an organiser rules.</p>
      ) : null}
      {canSet ? (
        <p className="muted small time-flow" data-testid="time-flow">
          {admin
            ? 'As an organiser you set the time here at once; the captains otherwise agree it in “Proposed times”.'
            : 'Agree the time in “Proposed times”: the usual way. “Set it now” is only for a time both captains have already agreed.'}
        </p>
      ) : null}
      {canSet && admin ? form : null}
      {canSet && !admin ? (
        <details className="time-shortcut">
          <summary>Set it now</summary>
          {form}
        </details>
      ) : null}
    </Panel>
  )
}

/** Each side's check-in for the match's time, and its captain's button in the hour before it. */
function CheckinPanel({ match, canCheckIn, side }: { match: Match; canCheckIn: boolean; side: string | null }) {
  const checkIn = useMatchCheckIn(match.id)
  const now = useNow()
  const state = matchCheckin(match, now)
  const late = noShows(match, now)
  const opens = match.checkin_opens_at ?? null
  const text = {
    'no-time': 'Each captain checks in during the hour before the match’s time, once it is set.',
    early: `Opens ${matchTime(opens)} (${untilMatch(opens, now)}), an hour before the match; closes at its time.`,
    open: `Open until the match’s time (${untilMatch(match.scheduled_at, now)}).`,
    closed: 'Closed at the match’s time.',
  }[state]
  return (
    <Panel title="Check-in" className="checkin-panel">
      <p className={state === 'open' ? 'msg msg-info' : 'muted small'}>{text}</p>
      <ul className="checkin-sides">
        {[match.team1, match.team2].map((t) =>
          t ? (
            <li key={t.id} data-team={t.id} data-checked-in={match.checked_in?.[t.id] ? 'true' : 'false'}>
              <span className="team-letter-sm" aria-hidden="true">
                {t.id}
              </span>
              <span>{teamName(t)}</span>
              {match.checked_in?.[t.id] ? (
                <span className="status-pill status-checked-in">✓ checked in {clockTime(match.checked_in[t.id])}</span>
              ) : late.includes(t.id) ? (
                <span className="status-pill status-no-show">did not check in</span>
              ) : (
                <span className="muted">not checked in</span>
              )}
            </li>
          ) : null,
        )}
      </ul>
      {late.length ? <p className="muted small">An organiser decides about a side that did not check in (a forfeit is theirs, never automatic).</p> : null}
      {canCheckIn && side ? (
        <div className="row-actions">
          <ActionButton pending={checkIn.isPending} onClick={() => checkIn.mutate(undefined)}>
            Check in team {side}
          </ActionButton>
        </div>
      ) : null}
      <ErrorMessage error={checkIn.error} fallback="The check-in failed." />
    </Panel>
  )
}

function LineupPicker({ match, side }: { match: Match; side: string }) {
  const members = match.members?.[side] ?? []
  const [picked, setPicked] = useState<number[]>(() => (match.lineups?.[side] ?? []).map((p) => p.user_id))
  const save = useSaveLineup(match.id)
  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]))
  return (
    <Panel title="Your lineup" className="lineup-panel">
      <p className="muted small">
        A room holds eight karts: pick up to {KARTS_PER_SIDE} ({picked.length} picked).
      </p>
      <ul className="lineup-pick">
        {members.map((p) => {
          const on = picked.includes(p.user_id)
          return (
            <li key={p.user_id}>
              <label className={`radio-chip ${on ? 'is-on' : ''}`}>
                <input
                  type="checkbox"
                  checked={on}
                  disabled={!on && picked.length >= KARTS_PER_SIDE}
                  onChange={() => toggle(p.user_id)}
                />
                {p.name}
                {p.substitute ? <span className="sub-tag">Sub</span> : null}
              </label>
            </li>
          )
        })}
      </ul>
      <div className="row-actions">
        <ActionButton className="btn btn-ghost" pending={save.isPending} disabled={picked.length === 0} onClick={() => save.mutate(picked)}>
          Save lineup
        </ActionButton>
      </div>
      <ErrorMessage error={save.error} fallback="The lineup could not be saved." />
    </Panel>
  )
}

function ReportView({ match }: { match: Match }) {
  const now = useNow()
  if (!match.report) return null
  const names = memberNames(match)
  const totals = teamTotals(match)
  return (
    <Panel title={match.status === 'completed' ? 'Result' : 'Reported result'} className="report-panel">
      <p>
        Winner: <strong>Team {match.report.winner}</strong>
        {match.reported_by ? <span className="muted"> · reported by team {match.reported_by}</span> : null}
        {match.forfeit ? <span className="muted"> · by forfeit</span> : null}
      </p>
      {match.status === 'reported' && match.confirm_by ? (
        <p className="msg msg-info" data-testid="confirm-by">
          Confirms itself {timeLeft(match.confirm_by, now)} ({dayTime(match.confirm_by)}) unless the
          other captain disputes it.
        </p>
      ) : null}
      {match.status === 'disputed' ? (
        <p className="msg msg-alert" data-testid="dispute-reason">
          Disputed: {match.dispute_reason} · an organiser will rule.
        </p>
      ) : null}
      {match.report.players.length ? (
        <div className="table-scroll">
          <table className="league-table">
            <thead>
              <tr>
                <th scope="col" className="col-name">
                  Player
                </th>
                <th scope="col">Team</th>
                <th scope="col">Kills</th>
                <th scope="col">Deaths</th>
                <th scope="col">Place</th>
              </tr>
            </thead>
            <tbody>
              {match.report.players.map((p) => (
                <tr key={p.user_id}>
                  <th scope="row" className="col-name">
                    {p.name || names.get(p.user_id) || `Player ${p.user_id}`}
                  </th>
                  <td>{p.team}</td>
                  <td>{p.kills}</td>
                  <td>{p.deaths}</td>
                  <td>{p.placement || '—'}</td>
                </tr>
              ))}
            </tbody>
            {totals ? (
              <tfoot>
                {Object.entries(totals).map(([team, t]) => (
                  <tr key={team} className="team-total" data-testid={`team-total-${team}`}>
                    <th scope="row" className="col-name">
                      Team {team} total
                    </th>
                    <td>{team}</td>
                    <td>{t.kills}</td>
                    <td>{t.deaths}</td>
                    <td />
                  </tr>
                ))}
              </tfoot>
            ) : null}
          </table>
        </div>
      ) : null}
      {match.proof ? (
        <figure className="proof">
          <a href={match.proof} target="_blank" rel="noreferrer">
            <img src={match.proof} alt="The end-of-match screenshot" loading="lazy" />
          </a>
          <figcaption className="muted small">End-of-match screenshot</figcaption>
        </figure>
      ) : null}
    </Panel>
  )
}

function AnswerPanel({ match }: { match: Match }) {
  const confirm = useConfirmResult(match.id)
  const dispute = useDisputeResult(match.id)
  const busy = confirm.isPending || dispute.isPending
  return (
    <Panel title="Your answer" className="answer-panel">
      <p className="muted small">Team {match.reported_by} reported this result. Confirm it, or dispute it and say why.</p>
      <div className="row-actions">
        <ActionButton pending={busy} onClick={() => confirm.mutate(undefined)}>
          Confirm result
        </ActionButton>
      </div>
      <TextForm id={`reason-${match.id}`} label="Why the result is wrong" maxLength={500} pending={busy} onSubmit={(reason) => dispute.mutate(reason)}
        submitLabel="Dispute" className="btn btn-danger-ghost" />
      <ErrorMessage error={lastFailure([confirm, 'The result could not be confirmed.'], [dispute, 'The dispute could not be sent.'])} />
    </Panel>
  )
}

function ForfeitPanel({ match, side }: { match: Match; side: string }) {
  const forfeit = useForfeit(match.id)
  const other = match.team1?.id === side ? match.team2 : match.team1
  return (
    <div className="forfeit">
      <ConfirmAction
        label="Forfeit this match"
        question={`Forfeit? Team ${other?.id ?? '?'} wins, with no kills counted.`}
        confirmLabel="Yes, forfeit"
        cancelLabel="Keep playing"
        busyLabel="Forfeiting…"
        className="btn btn-danger-ghost btn-sm"
        onConfirm={() => forfeit.mutateAsync(undefined)}
      />
      <ErrorMessage error={forfeit.error} fallback="The forfeit could not be recorded." />
    </div>
  )
}

/** One match: both sides and their lineups, the room, and each role's forms. */
export function MatchPage({ id }: { id: number }) {
  const { user } = useSession()
  const { data: match, isLoading, error } = useMatch(id)
  const { data: teams } = useLeagueTeams(match?.tournament ?? '')
  const [reporting, setReporting] = useState(false)
  const [ruling, setRuling] = useState(false)

  useEffect(() => {
    if (match) document.title = `Match ${match.id}: ${teamName(match.team1)} v ${teamName(match.team2)} · Pitlane`
  }, [match])

  if (isLoading) return <Spinner label="Loading the match" />
  if (!match) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400)
    return <EmptyState title={missing ? 'There is no such match.' : 'The match could not be loaded.'} />
  }

  const admin = allowed(user, 'organise')
  const side = sideOf(match, captainedTeam(teams, user?.id))
  const can = matchActions(match, side, admin)
  const back = `/tournament?tab=bracket${match.tournament ? `&season=${encodeURIComponent(match.tournament)}` : ''}`

  return (
    <div className="page match-page" data-match-id={match.id} data-status={match.status}>
      <PageHead
        kicker={<>{match.tournament ? `${match.tournament} · ` : ''}{roundTitle({ number: match.round_number, stage: match.stage })}</>}
        title={<>{teamName(match.team1)} <span className="muted">v</span> {teamName(match.team2)}</>}
        meta={
          <p className="page-meta">
            <StatusBadge match={match} />
            <LiveBadge matchId={match.id} />
            {match.winner ? <span className="muted"> · Team {match.winner} won</span> : null}
            {side ? <span className="muted"> · you captain team {side}</span> : null}
          </p>
        }
      >
        <div className="page-actions">
          <Link to={back} className="btn btn-ghost btn-sm">
            Bracket
          </Link>
          {match.scheduled_at && match.team1 && match.team2 && match.status !== 'cancelled' ? (
            <a href={`/api/matches/${match.id}/calendar.ics`} className="btn btn-ghost btn-sm" download={`pitlane-match-${match.id}.ics`}>
              Add to calendar
            </a>
          ) : null}
        </div>
      </PageHead>

      <div className="match-teams">
        <TeamColumn team={match.team1} match={match} />
        <TeamColumn team={match.team2} match={match} />
      </div>
      <CheerBar topic="bracket" label="Cheer this match" />

      <MatchStreams matchId={match.id} />

      <div className="match-grid">
        {isOpen(match) ? (
          <TimePanel key={match.scheduled_at ?? 'none'} match={match} canSet={can.setTime} admin={admin} />
        ) : null}
        {isOpen(match) ? (
          <ProposalPanel key={match.updated_at} match={match} canPropose={can.propose} canAccept={can.accept} />
        ) : null}
        {isOpen(match) ? <CheckinPanel match={match} canCheckIn={can.checkIn} side={side} /> : null}
        {isOpen(match) || match.room_set ? <RoomPanel match={match} canPost={can.postRoom} /> : null}
        {can.lineup && side ? <LineupPicker key={`${match.id}-${side}`} match={match} side={side} /> : null}
        <ReportView match={match} />
        {can.answer ? <AnswerPanel match={match} /> : null}
        {can.report ? (
          <Panel title="Report the result" className="report-form-panel">
            {reporting ? (
              <ResultForm match={match} mode="report" onDone={() => setReporting(false)} />
            ) : (
              <>
                <p className="muted small">
                  After the match: the winner, each player’s kills, deaths and placement, and the end-of-match screenshot.
                </p>
                <button type="button" className="btn btn-primary" onClick={() => setReporting(true)}>
                  Report the result
                </button>
              </>
            )}
          </Panel>
        ) : null}
        {can.resolve && (match.status === 'disputed' || match.status === 'reported' || match.status === 'completed') ? (
          <Panel title="Organiser" className="resolve-panel">
            {ruling ? (
              <ResultForm key={match.updated_at} match={match} mode="resolve" onDone={() => setRuling(false)} />
            ) : (
              <button type="button" className="btn btn-ghost" onClick={() => setRuling(true)}>
                {match.status === 'completed' ? 'Correct the result' : 'Rule on this match'}
              </button>
            )}
          </Panel>
        ) : null}
        {can.forfeit && side ? <ForfeitPanel match={match} side={side} /> : null}
      </div>
    </div>
  )
}
