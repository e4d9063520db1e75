// /admin's registration card: the cap, the check-in window (open, move its deadline, cancel), who
// has not checked in, and the waitlist in order with a promotion each. The server checks every call
// (phases, the cap); this card only offers what it would take, live with the public list.
import { useState, type FormEvent } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import { anyPending, lastFailure } from '@/lib/mutations'
import { dayTime, fromLocalInput, toLocalInput } from '@/lib/time'
import { useNow } from '@/lib/use-now'
import { phaseName } from '@/lib/season-name'
import { usePromote } from '../api/promote'
import { useRegistrations } from '../api/registrations'
import { useSetCap } from '../api/set-cap'
import { useSetCheckin } from '../api/set-checkin'
import { checkinState, counts, notCheckedIn, placesLine, waitlist } from '../lib/waitlist'
import type { TournamentStatus } from '../types'
import { checkinSentence } from './checkin'

/** How many names of those not checked in the card lists before "and N more". */
const SHOWN = 40

type Props = {
  tournament: string
  status: TournamentStatus | undefined
  /** The captains' user ids: they keep their places at the deadline. */
  captains: Set<string>
}

export function RegistrationAdmin({ tournament, status, captains }: Props) {
  const { data } = useRegistrations(tournament, { all: true })
  const now = useNow()
  const [cap, setCapInput] = useState<string | null>(null)
  const [deadline, setDeadline] = useState<string | null>(null)
  const setCap = useSetCap(tournament)
  const setCheckin = useSetCheckin(tournament)
  const promote = usePromote(tournament)
  if (!data) return null
  const busy = anyPending(setCap, setCheckin, promote)
  const error = lastFailure(
    [setCap, 'The cap could not be set.'],
    [setCheckin, setCheckin.variables === null ? 'The check-in could not be cancelled.' : 'The check-in could not be opened.'],
    [promote, 'The player could not be promoted.'],
  )

  const registering = status === 'registration'
  const promoting = registering || status === 'auction'
  const state = checkinState(data.checkin, now)
  const c = counts(data.players)
  const full = (data.cap ?? 0) > 0 && c.confirmed >= (data.cap ?? 0)
  const waiting = waitlist(data.players)
  const missing = state === 'open' || state === 'closing' ? notCheckedIn(data, captains) : []

  function saveCap(e: FormEvent) {
    e.preventDefault()
    setCap.mutate(Number(cap ?? data?.cap ?? 0) || 0, { onSettled: () => setCapInput(null) })
  }
  function openWindow(e: FormEvent) {
    e.preventDefault()
    const at = fromLocalInput(deadline ?? '')
    if (!at) return
    setCheckin.mutate(at, { onSettled: () => setDeadline(null) })
  }

  const windowOpen = state === 'open' || state === 'closing'
  return (
    <section className="admin-card admin-registration" aria-labelledby="reg-admin-title">
      <h2 id="reg-admin-title">Registration &amp; check-in</h2>
      <p className="muted" data-testid="admin-places">
        {placesLine(data.players, data.cap ?? 0)}
        {state !== 'none' ? ` · ${c.checkedIn} checked in` : ''}
      </p>
      {!registering ? <p className="msg msg-info">The cap and the check-in are set while registering; now: {phaseName(status)}.</p> : null}
      <form className="inline-form" onSubmit={saveCap}>
        <TextField
          label="Cap (confirmed players; 0: none)"
          type="number"
          inputMode="numeric"
          min={0}
          max={1000}
          value={cap ?? String(data.cap ?? 0)}
          onChange={(e) => setCapInput(e.target.value)}
          disabled={!registering}
        />
        <SubmitButton className="btn btn-ghost btn-sm" pending={busy} disabled={!registering || cap === null}>
          Save cap
        </SubmitButton>
      </form>
      <p className="field-hint">Beyond the cap, players wait in order and move up when someone unregisters, until the check-in closes.</p>

      <h3>Check-in</h3>
      <p className={state === 'open' ? 'msg msg-info' : 'muted'} data-testid="admin-checkin">
        {checkinSentence(data, now) || 'No check-in yet: open one before the auction, with a deadline.'}
      </p>
      <form className="inline-form" onSubmit={openWindow}>
        <TextField
          label="Deadline (your time zone)"
          type="datetime-local"
          value={deadline ?? (state === 'open' ? toLocalInput(data.checkin?.deadline ?? null) : '')}
          onChange={(e) => setDeadline(e.target.value)}
          disabled={!registering}
        />
        <SubmitButton className="btn btn-primary btn-sm" pending={busy} disabled={!registering || !fromLocalInput(deadline ?? '')}>
          {state === 'open' ? 'Move the deadline' : state === 'closed' ? 'Open it again' : 'Open check-in'}
        </SubmitButton>
        {state !== 'none' ? (
          <ConfirmAction
            label="Cancel the check-in"
            question="Cancel the check-in?"
            detail="Nobody moves to the waitlist; the players who checked in keep it if you open it again."
            confirmLabel="Yes, cancel it"
            cancelLabel="Keep it"
            busyLabel="Cancelling…"
            className="btn btn-danger-ghost btn-sm"
            disabled={!registering}
            onConfirm={() => setCheckin.mutateAsync(null)}
          />
        ) : null}
      </form>
      <ErrorMessage error={error} />

      {windowOpen ? (
        <div className="not-checked-in">
          <h3>
            Not checked in ({missing.length}){' '}
            <small className="muted">{state === 'open' ? `they move to the waitlist at ${dayTime(data.checkin?.deadline ?? null)}` : ''}</small>
          </h3>
          {missing.length === 0 ? (
            <p className="muted">Everyone confirmed has checked in (captains keep their places).</p>
          ) : (
            <ul className="name-cloud" data-testid="not-checked-in">
              {missing.slice(0, SHOWN).map((p) => (
                <li key={p.id}>{p.name}</li>
              ))}
              {missing.length > SHOWN ? <li className="muted">and {missing.length - SHOWN} more</li> : null}
            </ul>
          )}
        </div>
      ) : null}

      <h3>
        Waitlist ({waiting.length}){full ? <small className="muted"> · full: raise the cap to promote</small> : null}
      </h3>
      {waiting.length === 0 ? (
        <p className="muted">Nobody is waiting.</p>
      ) : (
        <ol className="waitlist-admin" data-testid="waitlist-admin">
          {waiting.map((p, i) => (
            <li key={p.id} data-player-id={p.id}>
              <span className="seed-no">{i + 1}</span>
              <span className="queue-name">
                <strong>{p.name}</strong>
                <small className="muted">
                  {p.hidden ? 'Profile hidden' : `K/D ${Number(p.kd).toFixed(2)}`}
                  {p.checked_in_at ? ' · ✓ checked in' : ''}
                </small>
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={!promoting || full || busy}
                onClick={() => promote.mutate(p.id)}
                aria-label={`Promote ${p.name}`}
              >
                Promote
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
