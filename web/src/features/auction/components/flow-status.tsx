// The auction's flow as every page shows it: "Paused", and whose turn it is to nominate with the
// turn's countdown (frozen while paused).
import { formatSeconds } from '../lib/countdown'
import { useLotCountdown } from '../lib/use-lot-countdown'
import type { AuctionFlow } from '../types'

/** Seconds left of a paused countdown. */
export const pausedSeconds = (ms: number) => Math.ceil(ms / 1000)

export function FlowStatus({ flow, offset, own }: { flow: AuctionFlow | undefined; offset: number; own?: string }) {
  const left = useLotCountdown(flow?.turn_ends_at, offset)
  if (!flow || (!flow.paused && !flow.turn_seconds)) return null
  let turn = null
  if (flow.turn_seconds > 0) {
    const clock = flow.turn_left_ms != null ? formatSeconds(pausedSeconds(flow.turn_left_ms)) : flow.turn_ends_at ? formatSeconds(left) : null
    const who = flow.turn === '' ? 'No team left to nominate' : flow.turn === own ? 'Your turn to nominate' : `Team ${flow.turn} to nominate`
    turn = (
      <span className="flow-turn" data-testid="flow-turn" data-team={flow.turn}>
        {flow.turn ? <span className="team-chip">{flow.turn}</span> : null} {who}
        {clock ? <strong className="flow-turn-clock"> · {clock}</strong> : flow.turn ? <span className="muted"> · after this lot</span> : null}
      </span>
    )
  }
  return (
    <div className={`flow-status ${flow.paused ? 'is-paused' : ''}`} role="status" data-testid="auction-flow">
      {flow.paused ? (
        <span className="paused-pill" data-testid="paused">
          Paused
        </span>
      ) : null}
      {turn}
    </div>
  )
}
