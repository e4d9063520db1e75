// /admin's registration card: the cap, the check-in window (open, move its deadline, cancel), who
// has not checked in, and the waitlist in order with a promotion each. The server checks every call
// (phases, the cap); this card only offers what it would take, live with the public list.
import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { Message } from '@/components/ui/popup'
import { dayTime, fromLocalInput, toLocalInput } from '@/lib/time'
import { useAction } from '@/lib/use-action'
import { useNow } from '@/lib/use-now'
import { promote, registrationsKey, setCap, setCheckin, useRegistrations } from '../api/registrations'
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
  const qc = useQueryClient()
  const { data } = useRegistrations(tournament)
  const now = useNow()
  const capId = useId()
  const deadlineId = useId()
  const [cap, setCapInput] = useState<string | null>(null)
  const [deadline, setDeadline] = useState<string | null>(null)
  const { busy, error, run } = useAction()
  if (!data) return null

  const registering = status === 'registration'
  const promoting = registering || status === 'auction'
  const state = checkinState(data.checkin, now)
  const c = counts(data.players)
  const full = (data.cap ?? 0) > 0 && c.confirmed >= (data.cap ?? 0)
  const waiting = waitlist(data.players)
  const missing = state === 'open' || state === 'closing' ? notCheckedIn(data, captains) : []
  const refresh = () => void qc.invalidateQueries({ queryKey: registrationsKey(tournament) })
  const act = async (fn: () => Promise<unknown>, fallback: string) => {
    if (await run(fn, fallback)) refresh()
  }

  async function saveCap(e: FormEvent) {
    e.preventDefault()
    await act(() => setCap(tournament, Number(cap ?? data?.cap ?? 0) || 0), 'The cap could not be set.')
    setCapInput(null)
  }
  async function openWindow(e: FormEvent) {
    e.preventDefault()
    const at = fromLocalInput(deadline ?? '')
    if (!at) return
    await act(() => setCheckin(tournament, at), 'The check-in could not be opened.')
    setDeadline(null)
  }

  const windowOpen = state === 'open' || state === 'closing'
  return (
    <section className="admin-card admin-registration" aria-labelledby="reg-admin-title">
      <h2 id="reg-admin-title">Registration &amp; check-in</h2>
      <p className="muted" data-testid="admin-places">
        {placesLine(data.players, data.cap ?? 0)}
        {state !== 'none' ? ` · ${c.checkedIn} checked in` : ''}
      </p>
      {!registering ? <p className="msg msg-info">The cap and the check-in are set while registering; {tournament} is in its {status} phase.</p> : null}
      <form className="inline-form" onSubmit={saveCap}>
        <div className="field">
          <label htmlFor={capId}>Cap (confirmed players; 0: none)</label>
          <input
            id={capId}
            type="number"
            inputMode="numeric"
            min={0}
            max={1000}
            value={cap ?? String(data.cap ?? 0)}
            onChange={(e) => setCapInput(e.target.value)}
            disabled={!registering}
          />
        </div>
        <button type="submit" className="btn btn-ghost btn-sm" disabled={!registering || busy || cap === null}>
          Save cap
        </button>
      </form>
      <p className="field-hint">Beyond the cap, players wait in order and move up when someone unregisters, until the check-in closes.</p>

      <h3>Check-in</h3>
      <p className={state === 'open' ? 'msg msg-info' : 'muted'} data-testid="admin-checkin">
        {checkinSentence(data, now) || 'No check-in yet: open one before the auction, with a deadline.'}
      </p>
      <form className="inline-form" onSubmit={openWindow}>
        <div className="field">
          <label htmlFor={deadlineId}>Deadline (your time zone)</label>
          <input
            id={deadlineId}
            type="datetime-local"
            value={deadline ?? (state === 'open' ? toLocalInput(data.checkin?.deadline ?? null) : '')}
            onChange={(e) => setDeadline(e.target.value)}
            disabled={!registering}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={!registering || busy || !fromLocalInput(deadline ?? '')}>
          {state === 'open' ? 'Move the deadline' : state === 'closed' ? 'Open it again' : 'Open check-in'}
        </button>
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
            onConfirm={() => act(() => setCheckin(tournament, null), 'The check-in could not be cancelled.')}
          />
        ) : null}
      </form>
      <Message kind="error">{error}</Message>

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
                  K/D {Number(p.kd).toFixed(2)}
                  {p.checked_in_at ? ' · ✓ checked in' : ''}
                </small>
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={!promoting || full || busy}
                onClick={() => void act(() => promote(tournament, p.id), 'The player could not be promoted.')}
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
