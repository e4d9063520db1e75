import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { makeUser } from '@/testing/fixtures'
import type { Dashboard } from '../types'
import { MetricsDashboard } from './metrics-dashboard'

const now = '2026-11-28T20:00:00Z'

function dashboard(over: Partial<Dashboard> = {}): Dashboard {
  return {
    tournament: 'PPL7',
    window: { name: 'season', since: '2026-10-01T00:00:00Z', resolution: 'day' },
    generated_at: now,
    targets: [
      { id: 'registered_users', label: 'registered users', goal: '100+', value: 112, display: '112', ok: true },
      { id: 'api_response', label: 'API response (p95)', goal: '< 500 ms', value: 640, display: '640 ms', ok: false },
      { id: 'uptime', label: 'uptime', goal: '99.9%', value: null, display: '—', ok: null },
    ],
    funnel: [
      { step: 'signed_up', label: 'Signed up', count: 10, stuck: 0, median_seconds: null, open: true },
      { step: 'verified', label: 'E-mail verified', count: 8, stuck: 2, median_seconds: 90, open: true },
      { step: 'discord', label: 'Discord linked', count: 7, stuck: 1, median_seconds: 30, detail: { typed: 5, proven: 2 }, open: true },
      { step: 'stats', label: 'Stats uploaded', count: 5, stuck: 2, median_seconds: 600, detail: { gemini: 3, typed: 2 }, open: true },
      { step: 'registered', label: 'Registered', count: 4, stuck: 1, median_seconds: 120, detail: { confirmed: 4, waitlisted: 0 }, open: true },
      { step: 'checked_in', label: 'Checked in', count: 0, stuck: 0, median_seconds: null, open: false },
    ],
    funnel_deleted: 1,
    funnel_daily: [
      { day: '2026-11-27', steps: { signed_up: 6, registered: 2 } },
      { day: '2026-11-28', steps: { signed_up: 4, registered: 2 } },
    ],
    stuck: {
      stats: [
        { user_id: 41, name: 'slow_racer', discord_verified: false, since: '2026-11-27T10:00:00Z', reach: ['email'], reminded_at: null },
        { user_id: 42, name: 'quiet_one', discord_verified: true, since: '2026-11-28T10:00:00Z', reach: [], reminded_at: null },
      ],
    },
    rum: {
      '/tournament': { lcp_p50_ms: 1500, lcp_p75_ms: 2100, lcp_p95_ms: 3900, lcp_n: 12, cls_p75: 0.31, cls_n: 12, ttfb_p75_ms: 210, ttfb_n: 12 },
      '/': { lcp_p75_ms: 900, lcp_n: 30 },
    },
    rum_series: [
      { at: '2026-11-27T00:00:00Z', lcp_p75_ms: 1900, samples: 20 },
      { at: '2026-11-28T00:00:00Z', lcp_p75_ms: 2100, samples: 22 },
    ],
    api: { requests: 5400, errors: 3, error_rate: 0.00055, p50_ms: 12, p95_ms: 640, p99_ms: 1900, routes: [{ route: 'GET /api/tournaments/{name}', requests: 3000, error_rate: 0, p95_ms: 40 }] },
    api_series: [
      { at: '2026-11-27T00:00:00Z', requests: 2000, errors: 1, p95_ms: 300 },
      { at: '2026-11-28T00:00:00Z', requests: 3400, errors: 2, p95_ms: 640 },
    ],
    uptime: { ratio: null, minutes_up: 0, minutes: 0, source: 'heartbeat', instances: [] },
    live: {
      spectators: 1234,
      instances: [{ id: 'a-1', host: 'pitlane1', started_at: now, seen_at: now, up: true, connections: 1234 }],
      events_per_second: 2.5,
      frames_per_second: 3100,
      relay_lag_p95_ms: 14,
      lots: [{ id: 9, player: 'ace', status: 'sold', bids: 7, high_amount: 1900, opened_at: now, closed_at: now }],
      bids_per_lot: 7,
    },
    ...over,
  }
}

function renderPage(d = dashboard()) {
  const api = mockApi({
    'GET /admin/metrics': (req) => ({ body: { ...d, window: { ...d.window, name: req.query.get('since') } } }),
    'GET /admin/metrics/live': { body: d.live },
    'POST /admin/metrics/reminders': (req) => {
      const ids = (req.body as { user_ids: number[] }).user_ids
      return { body: { sent: ids.map((id) => ({ user_id: id, name: 'slow_racer', channels: ['email'] })), skipped: [] } }
    },
  })
  renderApp(<MetricsDashboard tournament="PPL7" />, { route: '/admin/metrics', user: makeUser({ role: 'admin' }) })
  return api
}

describe('MetricsDashboard', () => {
  it('marks each goal met, missed, or not measured yet', async () => {
    renderPage()
    const met = await screen.findByTestId('target-registered_users')
    expect(met).toHaveClass('met')
    expect(met).toHaveTextContent('112')
    expect(screen.getByTestId('target-api_response')).toHaveClass('missed')
    expect(screen.getByTestId('target-uptime')).toHaveClass('none')
    expect(screen.getByTestId('target-uptime')).toHaveTextContent('no data yet')
  })

  it("says what each goal's figure measures: the API's p95 is the whole window's, the chart each day's", async () => {
    renderPage(dashboard({ api_series: [{ at: '2026-11-27T00:00:00Z', requests: 2000, errors: 1, p95_ms: 600 }] }))
    const api = await screen.findByTestId('target-api_response')
    expect(api).toHaveTextContent('p95 of every API call over the whole window')
    expect(api).toHaveTextContent('the chart shows each day’s p95')
    expect(screen.getByTestId('target-registered_users')).toHaveTextContent('verified accounts')
    expect(screen.getByRole('img', { name: "API p95 of each day" })).toBeInTheDocument()
    expect(screen.getByTestId('api-chart-note')).toHaveTextContent(/640 ms.*whole window.*a slow day can pass the 500 ms line/)
  })

  it('shows the funnel with its shares, breakdowns and the deleted accounts apart', async () => {
    renderPage()
    const stats = await screen.findByTestId('funnel-stats')
    expect(stats).toHaveTextContent('Stats uploaded5')
    expect(stats).toHaveTextContent('50% of sign-ups')
    expect(stats).toHaveTextContent('median 10 min')
    expect(stats).toHaveTextContent('3 read by Gemini · 2 typed')
    expect(screen.getByTestId('funnel-discord')).toHaveTextContent('5 typed · 2 proven')
    expect(screen.getByTestId('funnel-checked_in')).toHaveTextContent('no check-in opened')
    expect(screen.getByText(/1 deleted since, counted apart/)).toBeInTheDocument()
  })

  it('reminds the players a channel reaches, and says who none reaches', async () => {
    const api = renderPage()
    const list = await screen.findByTestId('stuck-stats')
    expect(within(list).getByText('slow_racer')).toBeInTheDocument()
    expect(within(list).getByText('no channel reaches them')).toBeInTheDocument()
    fireEvent.click(within(list).getByRole('button', { name: 'Remind 1 player' }))
    await waitFor(() => expect(api.callsTo('POST', '/admin/metrics/reminders')).toHaveLength(1))
    expect(api.callsTo('POST', '/admin/metrics/reminders')[0].body).toEqual({ tournament: 'PPL7', step: 'stats', user_ids: [41] })
    expect(await within(list).findByText(/Reminded 1\./)).toBeInTheDocument()
  })

  it('lists each page with its p75 vitals against the good thresholds, and the API', async () => {
    renderPage()
    const table = await screen.findByTestId('rum-table')
    const row = within(table).getByText('/tournament').closest('tr')!
    expect(row).toHaveTextContent('2.1 s')
    expect(within(row).getByText('0.31')).toHaveClass('poor')
    expect(within(row).getByText('2.1 s')).toHaveClass('good')
    expect(screen.getByTestId('api-p95')).toHaveTextContent('640 ms')
    expect(screen.getByRole('img', { name: 'API p95 of each day' })).toBeInTheDocument()
    expect(screen.getByTestId('live-spectators')).toHaveTextContent('1,234')
  })

  it('reads the window chosen', async () => {
    const api = renderPage()
    await screen.findByTestId('rum-table')
    fireEvent.click(screen.getByRole('button', { name: 'Last hour' }))
    await waitFor(() => expect(api.callsTo('GET', '/admin/metrics').some((c) => c.query.get('since') === 'hour')).toBe(true))
    expect(screen.getByRole('button', { name: 'Last hour' })).toHaveAttribute('aria-pressed', 'true')
  })
})
