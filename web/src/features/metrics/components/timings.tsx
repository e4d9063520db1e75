import { ms, percent, score } from '../lib/format'
import type { Dashboard } from '../types'
import { LineChart } from './line-chart'

const PAGE_GOAL_MS = 3000
const API_GOAL_MS = 500

// web-vitals' own "good" thresholds at p75, which a cell is marked against.
const GOOD: Record<string, number> = { lcp: 2500, inp: 200, cls: 0.1, ttfb: 800, fcp: 1800 }

function Cell({ timings, vital }: { timings: Record<string, number>; vital: string }) {
  const unit = vital === 'cls' ? '' : '_ms'
  const p75 = timings[`${vital}_p75${unit}`]
  if (p75 === undefined) return <td className="muted">—</td>
  const show = vital === 'cls' ? score : ms
  return (
    <td className={p75 <= GOOD[vital] ? 'good' : 'poor'} title={`p50 ${show(timings[`${vital}_p50${unit}`])} · p95 ${show(timings[`${vital}_p95${unit}`])} · ${timings[`${vital}_n`]} values`}>
      {show(p75)}
    </td>
  )
}

/** What players' browsers measured, page by page (p75; p50 and p95 on hover), and LCP over time. */
export function PageTimings({ dashboard }: { dashboard: Dashboard }) {
  const routes = Object.keys(dashboard.rum).sort((a, b) => (dashboard.rum[b].lcp_n ?? 0) - (dashboard.rum[a].lcp_n ?? 0))
  return (
    <section className="admin-card metric-pages" aria-labelledby="pages-title">
      <div className="card-head">
        <h2 id="pages-title">What players experienced</h2>
        <p className="muted small">Real browsers, sampled; p75 per page</p>
      </div>
      {routes.length === 0 ? (
        <p className="muted">No page timings in this window yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="metric-table" data-testid="rum-table">
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">LCP</th>
                <th scope="col">INP</th>
                <th scope="col">CLS</th>
                <th scope="col">TTFB</th>
                <th scope="col">FCP</th>
                <th scope="col">Loads</th>
              </tr>
            </thead>
            <tbody>
              {routes.map((r) => (
                <tr key={r}>
                  <th scope="row">
                    <code>{r}</code>
                  </th>
                  {['lcp', 'inp', 'cls', 'ttfb', 'fcp'].map((v) => (
                    <Cell key={v} timings={dashboard.rum[r]} vital={v} />
                  ))}
                  <td>{Math.max(dashboard.rum[r].lcp_n ?? 0, dashboard.rum[r].ttfb_n ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LineChart
        title={`Largest contentful paint, p75 of each ${dashboard.window.resolution}, every page`}
        goal={PAGE_GOAL_MS}
        format={ms}
        series={[{ name: 'LCP p75', className: 'series-lcp', points: dashboard.rum_series.map((p) => ({ at: p.at, value: p.lcp_p75_ms })) }]}
      />
    </section>
  )
}

/** The server's own answers: p50/p95/p99, errors, the busiest routes, p95 over time. */
export function ApiTimings({ dashboard }: { dashboard: Dashboard }) {
  const a = dashboard.api
  const stretch = dashboard.window.resolution
  const instances = dashboard.uptime.instances ?? []
  return (
    <section className="admin-card metric-api" aria-labelledby="api-title">
      <div className="card-head">
        <h2 id="api-title">The API</h2>
        <p className="muted small">
          Every instance ({instances.filter((i) => i.up).length} up now), the websocket aside
        </p>
      </div>
      <dl className="metric-facts">
        <div>
          <dt>p50</dt>
          <dd>{ms(a.p50_ms)}</dd>
        </div>
        <div>
          <dt>p75</dt>
          <dd>{ms(a.p75_ms)}</dd>
        </div>
        <div className={a.p95_ms === null ? '' : a.p95_ms < API_GOAL_MS ? 'good' : 'poor'}>
          <dt>p95</dt>
          <dd data-testid="api-p95">{ms(a.p95_ms)}</dd>
        </div>
        <div>
          <dt>p99</dt>
          <dd>{ms(a.p99_ms)}</dd>
        </div>
        <div className={a.error_rate === null ? '' : a.error_rate < 0.01 ? 'good' : 'poor'}>
          <dt>errors</dt>
          <dd>{percent(a.error_rate)}</dd>
        </div>
        <div>
          <dt>requests</dt>
          <dd>{a.requests.toLocaleString()}</dd>
        </div>
      </dl>
      <LineChart
        title={`API p95 of each ${stretch}`}
        goal={API_GOAL_MS}
        format={ms}
        series={[{ name: 'p95', className: 'series-api', points: dashboard.api_series.map((p) => ({ at: p.at, value: p.p95_ms })) }]}
      />
      {a.p95_ms !== null ? (
        <p className="muted small" data-testid="api-chart-note">
          The goal’s {ms(a.p95_ms)} is the p95 of every call over the whole window; each point above is one {stretch}’s p95, so a
          slow {stretch} can pass the {ms(API_GOAL_MS)} line while the window stays under it.
        </p>
      ) : null}
      {a.routes.length ? (
        <details className="metric-routes">
          <summary>Busiest routes</summary>
          <div className="table-scroll">
            <table className="metric-table">
              <thead>
                <tr>
                  <th scope="col">Route</th>
                  <th scope="col">Requests</th>
                  <th scope="col">p50</th>
                  <th scope="col">p75</th>
                  <th scope="col">p95</th>
                  <th scope="col">Errors</th>
                </tr>
              </thead>
              <tbody>
                {a.routes.map((r) => (
                  <tr key={r.route}>
                    <th scope="row">
                      <code>{r.route}</code>
                    </th>
                    <td>{r.requests.toLocaleString()}</td>
                    <td>{ms(r.p50_ms)}</td>
                    <td>{ms(r.p75_ms)}</td>
                    <td className={r.p95_ms !== null && r.p95_ms >= API_GOAL_MS ? 'poor' : ''}>{ms(r.p95_ms)}</td>
                    <td className={r.error_rate >= 0.01 ? 'poor' : ''}>{percent(r.error_rate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
      <p className="muted small">
        Uptime {percent(dashboard.uptime.ratio)} ({dashboard.uptime.minutes_up.toLocaleString()} of {dashboard.uptime.minutes.toLocaleString()}{' '}
        {dashboard.uptime.minutes === 1 ? 'minute' : 'minutes'} with an instance up, from the instances’ own heartbeat).
      </p>
    </section>
  )
}
