// "Live" beside a match or a player who is streaming now (nothing when the site has no streams).
import { liveFor, useStreams } from '@/lib/streams'

export function LiveBadge({ matchId, playerId }: { matchId?: number; playerId?: number }) {
  const { data } = useStreams()
  const s = liveFor(data, { matchId, playerId })
  if (!s) return null
  return (
    <span
      className={`live-badge${s.stale ? ' is-stale' : ''}`}
      data-live-channel={s.channel}
      title={`${s.display_name || s.channel} is live on Twitch${s.stale ? ' (last known)' : ''}: ${s.title}`}
    >
      <span className="live-dot" aria-hidden="true" />
      Live
    </span>
  )
}
