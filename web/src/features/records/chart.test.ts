import { describe, expect, it } from 'vitest'
import { chartSeries } from './chart'

const pt = (kills: number, deaths: number, kd: number) => ({ at: '', level: 1, kills, deaths, games_played: 1, kd })

describe('the stats chart', () => {
  it('draws kills and deaths on one scale, the most at the top', () => {
    const [kills, deaths] = chartSeries([pt(50, 25, 2), pt(100, 40, 2.5)], 200, 100)
    expect(kills.path).toBe('M0.0,50.0 L200.0,0.0')
    expect(deaths.path).toBe('M0.0,75.0 L200.0,60.0')
  })
  it('draws K/D on its own scale', () => {
    const kd = chartSeries([pt(50, 25, 2), pt(100, 40, 2.5)], 200, 100)[2]
    expect(kd.path).toBe('M0.0,20.0 L200.0,0.0')
    expect(kd.last).toBe(2.5)
  })
  it('has nothing to draw without uploads', () => {
    expect(chartSeries([], 200, 100)).toEqual([])
  })
})
