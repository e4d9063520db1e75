// Substitutes: a captain's bench and requests (the captain view), the organisers' answers
// (/admin/matches). The server checks every rule again; these only offer what it would take.
import { useState } from 'react'
import { ActionButton, ErrorMessage, TextForm } from '@/components/ui/form'
import { lastFailure } from '@/lib/mutations'
import { useApproveSubstitute } from '../api/approve-substitute'
import { useAskSubstitute } from '../api/ask-substitute'
import { useRefuseSubstitute } from '../api/refuse-substitute'
import { useBench } from '../api/substitutes'
import { benchOf } from '../lib/bench'
import type { LeagueTeam, SubstituteRequest } from '../types'
import { credits, figures, TierBadge } from './bits'

function RequestLine({ r, team = false }: { r: SubstituteRequest; team?: boolean }) {
  return (
    <>
      <span className="queue-name">
        <strong>
          {team ? `Team ${r.team}: ` : ''}
          {r.player.name}
        </strong>
        <small className="muted">
          <TierBadge tier={r.player.tier} /> {figures(r.player, { games: false, level: false })} · {credits(r.price)}
        </small>
      </span>
      <span className={`status-pill status-${r.status}`}>{r.status}</span>
      {r.reason ? <small className="muted request-reason">{r.reason}</small> : null}
    </>
  )
}

/** The captain's substitutes: the bench, what they asked for, and the players they may ask to sign. */
export function CaptainBench({ tournament, team }: { tournament: string; team: LeagueTeam }) {
  const { data } = useBench(tournament)
  const ask = useAskSubstitute(tournament)
  if (!data) return null
  const b = benchOf(data, team)
  const own = data.requests.filter((r) => r.team === team.id && r.status !== 'approved')
  const signing = data.status === 'matches'
  return (
    <section className="own-bench" aria-labelledby="bench-title" data-team={team.id}>
      <h2 id="bench-title">Substitutes</h2>
      <p className="muted small">
        Up to {data.max} besides your five, signed once the auction is over from the players it left, at their tier’s base price,
        from your purse. An organiser approves each one.
      </p>
      <p className="bench-line" data-testid={`bench-${team.id}`}>
        On your bench ({(team.substitutes ?? []).length} of {data.max}):{' '}
        {(team.substitutes ?? []).length ? (team.substitutes ?? []).map((p) => p.name).join(', ') : 'nobody yet'}
      </p>
      {own.length > 0 ? (
        <ul className="queue-list requests" aria-label="Your requests">
          {own.map((r) => (
            <li key={r.id} data-request-id={r.id}>
              <RequestLine r={r} />
            </li>
          ))}
        </ul>
      ) : null}
      {!signing ? (
        <p className="msg msg-info">Substitutes are signed once the auction is over, in the matches phase.</p>
      ) : b.room === 0 ? (
        <p className="muted small">Your bench is full ({data.max}, signed or asked for).</p>
      ) : (
        <>
          <h3>
            Free players <small className="muted">· {credits(b.purse)} to spend</small>
          </h3>
          {data.pool.length > 0 && data.pool.every((p) => p.price > b.purse) ? (
            <p className="muted small" data-testid="bench-purse">
              Every free player costs more than the {credits(b.purse)} your purse has left for a signing.
            </p>
          ) : null}
          <ul className="queue-list signable" aria-label="Players you may ask to sign">
            {data.pool.map((p) => {
              const why = b.whyNot(p.price)
              const asked = b.pending.some((r) => r.player.user_id === p.user_id)
              return (
                <li key={p.user_id}>
                  <span className="queue-name">
                    <strong>{p.name}</strong>
                    <small className="muted">
                      <TierBadge tier={p.tier} /> {figures(p, { games: false, level: false })} · {credits(p.price)}
                    </small>
                  </span>
                  <ActionButton
                    className="btn btn-ghost btn-sm"
                    title={why || undefined}
                    pending={ask.isPending}
                    disabled={asked || !!why}
                    onClick={() => ask.mutate(p.user_id)}
                    aria-label={`Ask to sign ${p.name}`}
                  >
                    {asked ? 'Asked' : 'Ask to sign'}
                  </ActionButton>
                </li>
              )
            })}
          </ul>
        </>
      )}
      <ErrorMessage error={ask.error} fallback="The request could not be sent." />
    </section>
  )
}

function PendingRequest({ tournament, r, open }: { tournament: string; r: SubstituteRequest; open: boolean }) {
  const approve = useApproveSubstitute(tournament, r.id)
  const refuse = useRefuseSubstitute(tournament, r.id)
  const busy = approve.isPending || refuse.isPending
  const [refusing, setRefusing] = useState(false)
  return (
    <li data-request-id={r.id} className="queue-item">
      <div className="queue-head">
        <RequestLine r={r} team />
        <span className="row-actions">
          <ActionButton
            className="btn btn-primary btn-sm"
            pending={busy}
            disabled={!open}
            onClick={() => approve.mutate(undefined)}
            aria-label={`Approve team ${r.team} signing ${r.player.name}`}
          >
            Approve
          </ActionButton>
          <button type="button" className="btn btn-ghost btn-sm" disabled={!open || busy} onClick={() => setRefusing((x) => !x)}>
            {refusing ? 'Keep it' : 'Refuse'}
          </button>
        </span>
      </div>
      {refusing ? (
        <TextForm id={`refuse-${r.id}`} label="Why (the captain reads it)" maxLength={200} pending={busy} onSubmit={(reason) => refuse.mutate(reason)}
          submitLabel="Refuse the request" className="btn btn-danger-ghost btn-sm" />
      ) : null}
      <ErrorMessage error={lastFailure([approve, 'The request could not be approved.'], [refuse, 'The request could not be refused.'])} />
    </li>
  )
}

/** The organisers' answers: the requests to sign substitutes, oldest first, then the last decided. */
export function SubstitutesAdmin({ tournament, phase }: { tournament: string; phase: string }) {
  const { data } = useBench(tournament)
  if (!data) return null
  const pending = data.requests.filter((r) => r.status === 'pending').reverse()
  const decided = data.requests.filter((r) => r.status !== 'pending').slice(0, 8)
  const open = phase === 'matches'
  return (
    <section className="match-panel" aria-label="Substitutes">
      <h2>Substitutes ({pending.length} to answer)</h2>
      <p className="muted small">
        Captains ask to sign free players at their tier’s base price, at most {data.max} a team; an approval checks the bench and the purse
        again (audited).
      </p>
      {pending.length === 0 ? (
        <p className="muted">No request waits.</p>
      ) : (
        <ul className="queue">
          {pending.map((r) => (
            <PendingRequest key={r.id} tournament={tournament} r={r} open={open} />
          ))}
        </ul>
      )}
      {decided.length > 0 ? (
        <>
          <h3>Answered</h3>
          <ul className="queue-list requests">
            {decided.map((r) => (
              <li key={r.id} data-request-id={r.id}>
                <RequestLine r={r} team />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  )
}
