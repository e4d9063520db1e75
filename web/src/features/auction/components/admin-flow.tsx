// /admin's auction flow: pause and resume, undo the last sale, and the captains' nomination turns.
import { useId, useState } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import { usePauseAuction } from '../api/pause-auction'
import { useResumeAuction } from '../api/resume-auction'
import { useSetTurns } from '../api/set-turns'
import { useUndoLastSale } from '../api/undo-last-sale'
import type { AuctionFlow, Sale } from '../types'
import { FlowStatus } from './flow-status'

type Props = {
  tournament: string
  flow: AuctionFlow
  offset: number
  /** The auction phase: pause, resume and undo run only then. */
  running: boolean
  /** Turns are set before the matches. */
  canSetTurns: boolean
  lastSale: Sale | null
}

const DEFAULT_TURN = 30

export function FlowAdmin({ tournament, flow, offset, running, canSetTurns, lastSale }: Props) {
  const pause = usePauseAuction(tournament)
  const resume = useResumeAuction(tournament)
  const undo = useUndoLastSale(tournament)
  const turns = useSetTurns(tournament)
  const [seconds, setSeconds] = useState(String(flow.turn_seconds || DEFAULT_TURN))
  const secondsId = useId()
  const failed = pause.error ?? resume.error ?? undo.error ?? turns.error
  const busy = pause.isPending || resume.isPending

  return (
    <section className="admin-card flow-admin" aria-labelledby="flow-title">
      <h2 id="flow-title">Auction flow</h2>
      <FlowStatus flow={flow} offset={offset} />
      <div className="flow-row">
        {flow.paused ? (
          <button type="button" className="btn btn-primary btn-sm" disabled={!running || busy} onClick={() => resume.mutate()}>
            {resume.isPending ? 'Resuming…' : 'Resume auction'}
          </button>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" disabled={!running || busy} onClick={() => pause.mutate()}>
            {pause.isPending ? 'Pausing…' : 'Pause auction'}
          </button>
        )}
        <ConfirmAction
          label="Undo last sale"
          question={lastSale ? `Undo the sale of ${lastSale.player.name} to team ${lastSale.team}?` : 'No sale to undo.'}
          detail={lastSale ? `Team ${lastSale.team} gets ${lastSale.price} credits back and the player returns to the pool.` : undefined}
          confirmLabel="Yes, undo it"
          cancelLabel="Keep the sale"
          busyLabel="Undoing…"
          className="btn btn-danger-ghost btn-sm"
          disabled={!running || !lastSale}
          onConfirm={() => undo.mutateAsync().catch(() => undefined)}
        />
      </div>
      <p className="muted small">
        A pause stops the lot’s countdown (and the captain’s turn) where it is; bids wait until you resume.
        {running ? '' : ' Pause, resume and undo work while the auction runs.'}
      </p>
      <div className="flow-row">
        <label>
          {/* The box turns them on; once on it stays ticked, and turning them off is a confirmed
              button: a second click on the box never undoes the first. */}
          <input
            type="checkbox"
            checked={turns.isPending && turns.variables ? turns.variables.enabled : flow.turn_seconds > 0}
            disabled={!canSetTurns || turns.isPending || flow.turn_seconds > 0}
            onChange={(e) => e.target.checked && turns.mutate({ enabled: true, seconds: Number(seconds) || 0 })}
          />{' '}
          Captains nominate in turn
        </label>
        {flow.turn_seconds > 0 ? (
          <ConfirmAction
            label="Turn off turns"
            question="Turn the nomination turns off? Only you open lots again."
            confirmLabel="Yes, turn off"
            cancelLabel="Keep the turns"
            busyLabel="Turning off…"
            className="btn btn-ghost btn-sm"
            disabled={!canSetTurns || turns.isPending}
            onConfirm={() => turns.mutateAsync({ enabled: false, seconds: Number(seconds) || 0 }).catch(() => undefined)}
          />
        ) : null}
        <label htmlFor={secondsId}>Seconds a turn</label>
        <input id={secondsId} type="number" inputMode="numeric" min={5} max={600} value={seconds} onChange={(e) => setSeconds(e.target.value)} />
        {flow.turn_seconds > 0 && Number(seconds) !== flow.turn_seconds ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={!canSetTurns || turns.isPending}
            onClick={() => turns.mutate({ enabled: true, seconds: Number(seconds) || 0 })}
          >
            Save
          </button>
        ) : null}
      </div>
      <p className="muted small">
        Teams A to H in turn, round and round (a full team is skipped). A captain who does not nominate in time gets the strongest
        player left put up for them. You can still open any lot.
      </p>
      {failed ? <Message kind="error">{errorMessage(failed, 'The auction could not be changed.')}</Message> : null}
    </section>
  )
}
