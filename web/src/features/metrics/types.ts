// The organisers' dashboard as GET /api/admin/metrics answers it (docs/metrics.md).

export type Target = {
  id: 'participants' | 'registered_users' | 'flow_completion' | 'discord_linked' | 'page_load' | 'api_response' | 'uptime' | 'error_rate'
  label: string
  goal: string
  value: number | null
  display: string
  ok: boolean | null
}

export type StepName = 'signed_up' | 'verified' | 'discord' | 'stats' | 'registered' | 'checked_in'

export type FunnelStep = {
  step: StepName
  label: string
  count: number
  stuck: number
  median_seconds: number | null
  detail?: Record<string, number>
  open: boolean
}

export type StuckPlayer = {
  user_id: number
  name: string
  discord_verified: boolean
  since: string
  reach: ('email' | 'push' | 'discord')[]
  reminded_at: string | null
}

export type Instance = {
  id: string
  host: string
  started_at: string
  seen_at: string
  up: boolean
  connections: number
  subscriptions?: Record<string, number>
  events_in_per_second?: number
  frames_out_per_second?: number
  slow_closes?: number
}

export type Live = {
  spectators: number
  subscriptions?: Record<string, number>
  instances: Instance[]
  events_per_second: number
  frames_per_second: number
  relay_lag_p50_ms?: number | null
  relay_lag_p95_ms?: number | null
  pending_events?: number
  slow_closes?: number
  lots: { id: number; player: string; status: string; bids: number; high_amount: number | null; opened_at: string; closed_at: string | null }[]
  bids_per_lot: number | null
}

/** One page's vitals: lcp_p50_ms, lcp_p75_ms, lcp_p95_ms, lcp_n, cls_p75, ... */
export type RouteTimings = Record<string, number>

export type Dashboard = {
  tournament: string
  /** resolution: each chart point's stretch (its percentile is that stretch's; the goals' the whole window's). */
  window: { name: WindowName | 'since'; since: string; resolution: Resolution }
  generated_at: string
  targets: Target[]
  funnel: FunnelStep[]
  funnel_deleted: number
  funnel_daily: { day: string; steps: Partial<Record<StepName, number>> }[]
  stuck: Partial<Record<StepName, StuckPlayer[]>>
  rum: Record<string, RouteTimings>
  rum_series: { at: string; lcp_p75_ms: number | null; samples: number }[]
  api: {
    requests: number
    errors: number
    error_rate: number | null
    p50_ms: number | null
    p75_ms?: number | null
    p95_ms: number | null
    p99_ms: number | null
    routes: { route: string; requests: number; error_rate: number; p50_ms?: number | null; p75_ms?: number | null; p95_ms: number | null }[]
  }
  api_series: { at: string; requests: number; errors: number; p95_ms: number | null }[]
  uptime: { ratio: number | null; minutes_up: number; minutes: number; source: 'heartbeat'; instances?: Instance[] }
  live: Live
}

export type WindowName = 'hour' | 'day' | 'week' | 'season'

export type Resolution = 'minute' | 'hour' | 'day'

export type ReminderResult = {
  sent: { user_id: number; name: string; channels: string[] }[]
  skipped: { user_id: number; name?: string; reason: string }[]
}
