// /admin/metrics: the product against its own goals (docs/metrics.md).
import { useState } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { clockSeconds, dayTime } from '@/lib/time'
import { useDashboard } from '../api/dashboard'
import type { WindowName } from '../types'
import { Funnel } from './funnel'
import { LiveNight } from './live-night'
import { Targets } from './targets'
import { ApiTimings, PageTimings } from './timings'
import '../metrics.css'

const WINDOWS: { name: WindowName; label: string }[] = [
  { name: 'hour', label: 'Last hour' },
  { name: 'day', label: 'Last day' },
  { name: 'week', label: 'Last week' },
  { name: 'season', label: 'Season' },
]

export function MetricsDashboard({ tournament }: { tournament: string }) {
  const [since, setSince] = useState<WindowName>('season')
  const dashboard = useDashboard(tournament, since)
  const d = dashboard.data
  return (
    <div className="metrics-page">
      <div className="metric-windows" role="group" aria-label="Window">
        {WINDOWS.map((w) => (
          <button key={w.name} type="button" className={w.name === since ? 'chip active' : 'chip'} aria-pressed={w.name === since} onClick={() => setSince(w.name)}>
            {w.label}
          </button>
        ))}
        {dashboard.isFetching ? <Spinner label="Reading" /> : null}
      </div>
      {dashboard.isLoading ? (
        <Spinner label="Reading the figures" />
      ) : !d ? (
        <>
          <EmptyState title="The figures could not be read." />
          <ErrorMessage error={dashboard.error} />
        </>
      ) : (
        <>
          <Targets targets={d.targets} stretch={d.window.resolution} />
          <div className="metrics-grid">
            <Funnel dashboard={d} />
            <LiveNight tournament={tournament} initial={d.live} />
            <PageTimings dashboard={d} />
            <ApiTimings dashboard={d} />
          </div>
          <p className="muted small">
            Since {dayTime(d.window.since)} · read {clockSeconds(d.generated_at)}. Prometheus and Grafana for operators:
            deploy/ (docs/metrics.md).
          </p>
        </>
      )}
    </div>
  )
}
