import { STATUS_LABEL } from '../lib/match-model'
import type { MatchStatus } from '../types'

export function StatusBadge({ status }: { status: MatchStatus }) {
  return (
    <span className={`match-status status-${status}`} data-status={status}>
      {status === 'live' ? <span className="live-dot" aria-hidden="true" /> : null}
      {STATUS_LABEL[status] ?? status}
    </span>
  )
}
