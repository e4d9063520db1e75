import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { Standings } from '../types'
import { PointsTable } from './standings'

const standings = (over: Partial<Standings> = {}): Standings => ({
  tournament: 'PPL7',
  seq: 4,
  stage: 'league',
  scoring: { win: 3, loss: 0, kills_per_point: 50 },
  tie_break: ['points', 'kill difference', 'head-to-head', 'kills'],
  rows: [
    { team: 'B', name: 'Team B', played: 2, won: 2, lost: 0, kills: 120, deaths: 40, kill_difference: 80, kill_points: 2, points: 8 },
    { team: 'A', name: 'Team A', played: 2, won: 1, lost: 1, kills: 90, deaths: 70, kill_difference: 20, kill_points: 1, points: 4 },
  ],
  ...over,
})

const heads = () => within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent)

describe('the Points Table on a narrow screen', () => {
  it('leads with the columns that decide the order (points, kill points, kill difference) right after the team', async () => {
    mockApi({ 'GET /tournaments/PPL7/standings': { body: standings() } })
    renderApp(<PointsTable tournament="PPL7" />)
    await screen.findByRole('table')
    expect(heads()).toEqual(['#', 'Team', 'Pts', 'KP', '+/−', 'P', 'W', 'L', 'Kills', 'Deaths'])
    const row = within(screen.getByRole('row', { name: /Team B/ })).getAllByRole('cell')
    expect(row.map((c) => c.textContent)).toEqual(['1', '8', '2', '+80', '2', '2', '0', '120', '40'])
  })

  it('a Swiss stage leads with points, Buchholz and byes', async () => {
    const rows = standings().rows.map((r) => ({ ...r, byes: 1, buchholz: 5 }))
    mockApi({ 'GET /tournaments/PPL7/standings': { body: standings({ stage: 'swiss', rows }) } })
    renderApp(<PointsTable tournament="PPL7" />)
    await screen.findByRole('table')
    expect(heads().slice(0, 5)).toEqual(['#', 'Team', 'Pts', 'Bh', 'Bye'])
  })

  it('says the table scrolls sideways for the other columns', async () => {
    mockApi({ 'GET /tournaments/PPL7/standings': { body: standings() } })
    renderApp(<PointsTable tournament="PPL7" />)
    await screen.findByRole('table')
    expect(screen.getByText(/Swipe sideways for the other columns/)).toHaveClass('table-scroll-hint')
  })
})
