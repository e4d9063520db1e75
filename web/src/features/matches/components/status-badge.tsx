import { useNow } from '@/lib/use-now'
import { shownStatus, STATUS_LABEL } from '../lib/match-model'
import type { Match } from '../types'

/** A match's status as the pages show it: "Live" from the agreed time (shownStatus), not the room's posting. */
export function StatusBadge({ match }: { match: Pick<Match, 'status' | 'live_from'> }) {
  const now = useNow()
  const status = shownStatus(match, now)
  return (
    <span className={`match-status status-${status}`} data-status={status}>
      {status === 'live' ? <span className="live-dot" aria-hidden="true" /> : null}
      {STATUS_LABEL[status] ?? status}
    </span>
  )
}
