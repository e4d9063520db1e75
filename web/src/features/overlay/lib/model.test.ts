import { describe, expect, it } from 'vitest'
import type { AuctionView, Lot, PlayerRef } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'
import { closingBanner, lastResult, sideKills, teamLabel } from './model'

const player = (id: number): PlayerRef => ({ user_id: id, name: `P${id}`, tier: 2, image: null, kd: 1.5, games_played: 100, level: 30 })
const at = (s: number) => new Date(Date.UTC(2026, 10, 25, 20, 0, s)).toISOString()
const t0 = Date.UTC(2026, 10, 25, 20, 0, 0)

type Results = Pick<AuctionView, 'lot' | 'sold' | 'unsold'>
const view = (v: Partial<Results>): Results => ({ lot: null, sold: [], unsold: [], ...v })

describe('lastResult', () => {
  it('is the latest close, sold or unsold', () => {
    const v = view({
      sold: [{ lot_id: 1, player: player(1), team: 'A', price: 1500, at: at(10) }],
      unsold: [{ lot_id: 2, player: player(2), at: at(20) }],
    })
    expect(lastResult(v)).toEqual({ kind: 'unsold', unsold: v.unsold[0] })
    expect(lastResult(view({}))).toBeNull()
  })
})

describe('closingBanner', () => {
  const sold = view({ sold: [{ lot_id: 1, player: player(1), team: 'B', price: 2100, at: at(0) }] })

  it('shows the sale for `hold` seconds of the server clock, then nothing', () => {
    expect(closingBanner(sold, t0 + 29_000, 30)?.kind).toBe('sold')
    expect(closingBanner(sold, t0 + 31_000, 30)).toBeNull()
  })

  it('gives way to the next open lot at once', () => {
    const next = { id: 2, status: 'open', player: player(2) } as Lot
    expect(closingBanner({ ...sold, lot: next }, t0 + 1_000, 30)).toBeNull()
  })
})

describe('sideKills', () => {
  const match = {
    team1: { id: 'A', name: 'Alpha' },
    team2: { id: 'C', name: '' },
    report: {
      winner: 'A',
      players: [
        { user_id: 1, team: 'A', kills: 7, deaths: 2, placement: 1 },
        { user_id: 2, team: 'A', kills: 3, deaths: 4, placement: 4 },
        { user_id: 3, team: 'C', kills: 5, deaths: 5, placement: 2 },
      ],
    },
  } as Pick<Match, 'report' | 'team1' | 'team2'>

  it('adds up each side from the report', () => {
    expect(sideKills(match)).toEqual({ A: 10, C: 5 })
  })

  it('is unknown before a report', () => {
    expect(sideKills({ ...match, report: null })).toBeNull()
  })

  it('names a team by its letter when it has no name', () => {
    expect(teamLabel(match.team2, 'C')).toBe('Team C')
    expect(teamLabel(match.team1, 'A')).toBe('Alpha')
  })
})
