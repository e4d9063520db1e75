// A small hand-made line chart: a few series over time and an optional goal as a dashed line. The
// lines are SVG stretched to the chart's box (their strokes keep their width); the labels and a lone
// point are HTML placed by percentages, so the text keeps its size on a phone and on a wide screen.
// No chart library: the dashboard needs lines, a goal and two labels per axis.
import type { CSSProperties } from 'react'

export type Series = { name: string; className: string; points: { at: string; value: number | null }[] }

type Props = {
  title: string
  series: Series[]
  /** The goal, drawn as a dashed line. */
  goal?: number
  format: (v: number) => string
  /** Label the time axis with dates (a series by the day) rather than times. */
  dates?: boolean
}

function timeLabel(t: number, dates: boolean) {
  const d = new Date(t)
  if (dates) return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
  return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
}

export function LineChart({ title, series, goal, format, dates = false }: Props) {
  const all = series.flatMap((s) => s.points.map((p) => ({ t: Date.parse(p.at), v: p.value })))
  const values = all.flatMap((p) => (p.v === null ? [] : [p.v]))
  if (values.length === 0) {
    return (
      <figure className="line-chart line-chart-empty">
        <figcaption>{title}</figcaption>
        <p className="muted small">No data in this window yet.</p>
      </figure>
    )
  }
  const first = Math.min(...all.map((p) => p.t))
  const last = Math.max(...all.map((p) => p.t))
  const [t0, t1] = first === last ? [first - 1, last + 1] : [first, last]
  const top = Math.max(...values, goal ?? 0) * 1.15 || 1
  // Percent of the plot's width and height (0 at the top).
  const x = (t: number) => ((t - t0) / (t1 - t0)) * 100
  const y = (v: number) => (1 - v / top) * 100
  const path = (s: Series) => {
    let d = ''
    let pen = false
    for (const p of s.points) {
      if (p.value === null) {
        pen = false
        continue
      }
      d += `${pen ? 'L' : 'M'}${x(Date.parse(p.at)).toFixed(2)},${y(p.value).toFixed(2)}`
      pen = true
    }
    return d
  }
  const at = (left: number, topPct: number): CSSProperties => ({ left: `${left}%`, top: `${topPct}%` })
  return (
    <figure className="line-chart">
      <figcaption>{title}</figcaption>
      <div className="chart-box">
        <div className="chart-y" aria-hidden="true">
          {[top / 1.15, top / 2.3].map((v) => (
            <span key={v} style={{ top: `${y(v)}%` }}>
              {format(v)}
            </span>
          ))}
        </div>
        <div className="chart-plot">
          <svg viewBox="0 0 100 100" preserveAspectRatio="none" role="img" aria-label={title}>
            {[top / 1.15, top / 2.3].map((v) => (
              <line key={v} className="grid" x1={0} x2={100} y1={y(v)} y2={y(v)} vectorEffect="non-scaling-stroke" />
            ))}
            <line className="axis" x1={0} x2={100} y1={100} y2={100} vectorEffect="non-scaling-stroke" />
            {goal !== undefined ? <line className="goal" x1={0} x2={100} y1={y(goal)} y2={y(goal)} vectorEffect="non-scaling-stroke" /> : null}
            {series.map((s) => (
              <path key={s.name} className={`series ${s.className}`} d={path(s)} vectorEffect="non-scaling-stroke" />
            ))}
          </svg>
          {goal !== undefined ? (
            <span className="chart-goal" style={{ top: `${y(goal)}%` }}>
              goal {format(goal)}
            </span>
          ) : null}
          {series.flatMap((s) => {
            const shown = s.points.filter((p) => p.value !== null)
            // A lone value draws no line: a dot shows it.
            return shown.length === 1 ? [<span key={s.name} className={`chart-dot ${s.className}`} style={at(x(Date.parse(shown[0].at)), y(shown[0].value!))} />] : []
          })}
        </div>
        <div className="chart-x" aria-hidden="true">
          <span>{timeLabel(first, dates)}</span>
          {first !== last ? <span>{timeLabel(last, dates)}</span> : null}
        </div>
      </div>
      {series.length > 1 ? (
        <ul className="chart-legend">
          {series.map((s) => (
            <li key={s.name} className={s.className}>
              {s.name}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  )
}
