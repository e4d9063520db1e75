import { dateOf } from '@/lib/time'
import { chartSeries } from '../chart'
import type { Point } from '../types'

const W = 600
const H = 160

/** The stats as each upload read them, oldest on the left: kills, deaths and K/D, in plain SVG. */
export function StatsChart({ points }: { points: Point[] }) {
  const series = chartSeries(points, W, H)
  if (series.length === 0) return <p className="muted">No uploads yet.</p>
  return (
    <figure className="stats-chart">
      <svg viewBox={`-4 -4 ${W + 8} ${H + 8}`} role="img" aria-label={`Stats over ${points.length} uploads`} preserveAspectRatio="none">
        {[0.25, 0.5, 0.75].map((f) => (
          <line key={f} className="chart-grid" x1={0} x2={W} y1={H * f} y2={H * f} />
        ))}
        {series.map((s) => (
          <path key={s.key} className={`chart-line chart-${s.key}`} d={s.path} vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
      <figcaption className="chart-legend">
        {series.map((s) => (
          <span key={s.key} className={`legend-${s.key}`}>
            <span className="legend-swatch" aria-hidden="true" /> {s.label} {s.key === 'kd' ? s.last.toFixed(2) : s.last}
          </span>
        ))}
        <span className="muted">
          {points.length} upload{points.length === 1 ? '' : 's'}
          {points.length > 1 ? ` since ${dateOf(points[0].at)}` : ''}
        </span>
      </figcaption>
    </figure>
  )
}
