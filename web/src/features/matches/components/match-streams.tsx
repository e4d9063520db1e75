// The match page's streams: who is live from this match (players' own channels), each a facade.
import { StreamCard } from '@/components/ui/stream-card'
import { useStreams } from '@/lib/streams'

export function MatchStreams({ matchId }: { matchId: number }) {
  const { data } = useStreams()
  const live = (data ?? []).filter((s) => s.live && s.match_id === matchId)
  if (!live.length) return null
  return (
    <section className="match-streams" aria-label="Live from this match">
      <h2>Live from this match</h2>
      <ul className="stream-grid">
        {live.map((s) => (
          <li key={`${s.platform}:${s.channel}`}>
            <StreamCard stream={s} />
          </li>
        ))}
      </ul>
    </section>
  )
}
