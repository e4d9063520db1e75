// /streams: who is live now, the league's casts first, then players in today's matches, then the
// rest. Each card shows Twitch's preview picture (a facade); the player itself loads on a click, so
// the page costs no third-party script until a visitor asks to watch.
import { useState } from 'react'
import { PageHead } from '@/components/layout/page-head'
import { EmptyState } from '@/components/ui/empty-state'
import { Message } from '@/components/ui/popup'
import { Spinner } from '@/components/ui/spinner'
import { StreamCard } from '@/components/ui/stream-card'
import { sortStreams, useStreams, type Stream } from '@/lib/streams'

const groups = [
  { key: 'casts', title: 'League casts', test: (s: Stream) => s.official },
  { key: 'matches', title: 'Players in today’s matches', test: (s: Stream) => !s.official && !!s.match_id },
  { key: 'rest', title: 'More from the league', test: (s: Stream) => !s.official && !s.match_id },
]

/** The outcome of linking Twitch, as the server sent the browser back (?twitch=linked|error&message=…). */
function linkOutcome(search: string) {
  const q = new URLSearchParams(search)
  const o = q.get('twitch')
  if (o !== 'linked' && o !== 'error') return null
  return { kind: o === 'linked' ? ('success' as const) : ('error' as const), text: (q.get('message') || 'Twitch linking failed.').slice(0, 300) }
}

export function StreamsPage() {
  const { data, isLoading, isError } = useStreams()
  const [outcome] = useState(() => linkOutcome(window.location.search))
  const list = sortStreams(data ?? [])
  const live = list.filter((s) => s.live)
  return (
    <div className="page streams-page">
      <PageHead
        kicker="Live"
        title="Streams"
        meta={<p className="muted page-meta">Who is live now: the league’s casts, then players in today’s matches, then the rest.</p>}
      />
      {outcome ? <Message kind={outcome.kind}>{outcome.text}</Message> : null}
      {isLoading ? (
        <div className="page-loading">
          <Spinner />
        </div>
      ) : isError ? (
        <Message kind="error">Streams cannot be read right now.</Message>
      ) : live.length === 0 ? (
        <EmptyState title="Nobody is live right now.">
          <p>Link your Twitch channel from your profile and you will show up here when you go live.</p>
        </EmptyState>
      ) : (
        groups.map((g) => {
          const shown = live.filter(g.test)
          return shown.length ? (
            <section key={g.key} className="streams-group" aria-labelledby={`streams-${g.key}`}>
              <h2 id={`streams-${g.key}`}>{g.title}</h2>
              <ul className="stream-grid">
                {shown.map((s) => (
                  <li key={`${s.platform}:${s.channel}`}>
                    <StreamCard stream={s} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null
        })
      )}
      <OfflineCasts list={list.filter((s) => !s.live && s.official)} />
    </div>
  )
}

function OfflineCasts({ list }: { list: Stream[] }) {
  if (!list.length) return null
  return (
    <p className="muted streams-offline">
      Offline now: {list.map((s, i) => <span key={s.channel}>{i ? ', ' : ''}{s.display_name || s.channel}</span>)}
    </p>
  )
}
