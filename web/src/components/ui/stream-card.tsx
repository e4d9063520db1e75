// A stream as a card: Twitch's preview picture as a facade, the title and viewers; the player itself
// (Twitch's iframe) loads only when the visitor presses play.
import { useState } from 'react'
import { Link } from '@/lib/router'
import type { Stream } from '@/lib/streams'

const viewersText = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'viewer' : 'viewers'}`

/** One stream: the facade (preview picture, title, viewers) until the visitor presses play. */
export function StreamCard({ stream: s }: { stream: Stream }) {
  const [playing, setPlaying] = useState(false)
  const name = s.display_name || s.channel
  return (
    <article className={`stream-card${s.stale ? ' is-stale' : ''}`} data-channel={s.channel}>
      <div className="stream-frame">
        {playing ? (
          <iframe
            title={`${name} on Twitch`}
            src={`https://player.twitch.tv/?channel=${encodeURIComponent(s.channel)}&parent=${encodeURIComponent(window.location.hostname)}&autoplay=true`}
            allow="autoplay; fullscreen"
            allowFullScreen
          />
        ) : (
          <button type="button" className="stream-facade" onClick={() => setPlaying(true)} aria-label={`Watch ${name} on Twitch`}>
            {s.thumbnail ? <img src={s.thumbnail} alt="" width={440} height={248} loading="lazy" decoding="async" /> : null}
            <span className="stream-play" aria-hidden="true">
              ▶
            </span>
            <span className="live-badge stream-live">
              <span className="live-dot" aria-hidden="true" />
              {s.stale ? 'Last known: live' : 'Live'}
            </span>
          </button>
        )}
      </div>
      <div className="stream-info">
        <h3 className="stream-title" title={s.title}>
          {s.title || 'Untitled stream'}
        </h3>
        <p className="muted">
          <a href={`https://www.twitch.tv/${encodeURIComponent(s.channel)}`} target="_blank" rel="noopener noreferrer">
            {name}
          </a>{' '}
          · {viewersText(s.viewers)}
          {s.official ? <span className="stream-tag">League cast</span> : null}
        </p>
        {s.match_id || s.player_id ? (
          <p className="stream-links">
            {s.match_id ? <Link to={`/matches/${s.match_id}`}>Match {s.match_id}</Link> : null}
            {s.player_id ? <Link to={`/players/${s.player_id}`}>Player page</Link> : null}
          </p>
        ) : null}
        {s.stale ? <p className="field-hint">Twitch has not answered lately: this is the last known state.</p> : null}
      </div>
    </article>
  )
}
