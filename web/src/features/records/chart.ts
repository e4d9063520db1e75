import type { Point } from './types'

export type Series = { key: 'kills' | 'deaths' | 'kd'; label: string; path: string; last: number }

/**
 * The stats chart's lines: kills and deaths on one scale (0 to their most), K/D on its own (0 to
 * its most), each an SVG path across `width` × `height`, oldest upload on the left.
 */
export function chartSeries(points: Point[], width: number, height: number): Series[] {
  if (points.length === 0) return []
  const x = (i: number) => (points.length === 1 ? width / 2 : (i / (points.length - 1)) * width)
  const counts = Math.max(1, ...points.map((p) => Math.max(p.kills, p.deaths)))
  const kds = Math.max(0.01, ...points.map((p) => p.kd))
  const line = (value: (p: Point) => number, top: number) =>
    points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${(height - (value(p) / top) * height).toFixed(1)}`).join(' ')
  const last = points[points.length - 1]
  return [
    { key: 'kills', label: 'Kills', path: line((p) => p.kills, counts), last: last.kills },
    { key: 'deaths', label: 'Deaths', path: line((p) => p.deaths, counts), last: last.deaths },
    { key: 'kd', label: 'K/D', path: line((p) => p.kd, kds), last: last.kd },
  ]
}
