import { useLive } from '../api/dashboard'
import { ms } from '../lib/format'
import type { Live } from '../types'

/** The night as it happens: spectators, events a second, the relay's lag, bids per lot (every 5 s). */
export function LiveNight({ tournament, initial }: { tournament: string; initial: Live }) {
  const live = useLive(tournament).data ?? initial
  const topBids = Math.max(1, ...live.lots.map((l) => l.bids))
  return (
    <section className="admin-card metric-live" aria-labelledby="live-title">
      <div className="card-head">
        <h2 id="live-title">
          Live <span className="live-dot" aria-hidden="true" />
        </h2>
        <p className="muted small">Read every 5 seconds</p>
      </div>
      <dl className="metric-facts">
        <div>
          <dt>spectators</dt>
          <dd data-testid="live-spectators">{live.spectators.toLocaleString()}</dd>
        </div>
        <div>
          <dt>events / s</dt>
          <dd>{live.events_per_second.toFixed(1)}</dd>
        </div>
        <div>
          <dt>frames / s</dt>
          <dd>{live.frames_per_second.toFixed(0)}</dd>
        </div>
        <div>
          <dt>relay lag p95</dt>
          <dd>{ms(live.relay_lag_p95_ms)}</dd>
        </div>
        <div>
          <dt>bids / lot</dt>
          <dd>{live.bids_per_lot === null ? '—' : live.bids_per_lot.toFixed(1)}</dd>
        </div>
      </dl>
      <ul className="metric-instances">
        {live.instances.map((i) => (
          <li key={i.id} className={i.up ? 'up' : 'down'}>
            <b>{i.host}</b> {i.up ? `${i.connections} websocket${i.connections === 1 ? '' : 's'}` : 'not seen for 30 s'}
          </li>
        ))}
      </ul>
      {live.lots.length ? (
        <>
          <h3>Bids per lot</h3>
          <ol className="lot-bids">
            {live.lots.map((l) => (
              <li key={l.id}>
                <span className="lot-name">{l.player}</span>
                <span className="lot-bar" aria-hidden="true">
                  <span style={{ width: `${(100 * l.bids) / topBids}%` }} />
                </span>
                <span className="small">
                  {l.bids} {l.status === 'open' ? '(open)' : l.status === 'sold' ? `→ ${l.high_amount}` : l.status}
                </span>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="muted small">No lot has opened in this season yet.</p>
      )}
    </section>
  )
}
