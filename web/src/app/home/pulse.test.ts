import { describe, expect, it } from 'vitest'
import { makePlayer, makeUser } from '@/testing/fixtures'
import { makeMatch } from '@/testing/league-fixtures'
import type { Sale } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'
import { latestResult, latestSale, newestPlayers, nextStep, ownNextMatch, type StepInput } from './pulse'

const sale = (name: string, team: string, at: string): Sale => ({ lot_id: 1, player: { user_id: 1, name } as Sale['player'], team, price: 1500, at })

/** A scheduled league match of Team A (Rider) against Team B (Other), unless over says otherwise. */
const match = (id: number, over: Partial<Match> = {}): Match =>
  makeMatch({
    id,
    stage: 'league',
    slot: id,
    team2: { id: 'B', name: 'Team B' },
    status: 'scheduled',
    next_match: null,
    members: { A: [{ user_id: 7, name: 'Rider' }], B: [{ user_id: 9, name: 'Other' }] },
    ...over,
  })

describe('what is happening', () => {
  it('the latest sale is the one made last, whatever the list’s order', () => {
    expect(latestSale([])).toBeNull()
    expect(latestSale([sale('Old', 'A', '2026-12-01T10:00:00Z'), sale('New', 'C', '2026-12-01T10:05:00Z'), sale('Mid', 'B', '2026-12-01T10:02:00Z')])?.player.name).toBe('New')
  })

  it('the latest result is the completed match reported last', () => {
    const matches = [
      match(1, { status: 'completed', winner: 'A', reported_at: '2026-12-02T18:00:00Z' }),
      match(2, { status: 'completed', winner: 'B', reported_at: '2026-12-03T18:00:00Z' }),
      match(3, { status: 'reported', winner: 'A', reported_at: '2026-12-04T18:00:00Z' }),
      match(4),
    ]
    expect(latestResult(matches)?.id).toBe(2)
    expect(latestResult([match(4)])).toBeNull()
  })

  it('the player’s next match is the first upcoming one they play in', () => {
    const upcoming = [match(1, { members: { C: [{ user_id: 1, name: 'X' }] } }), match(2), match(3)]
    expect(ownNextMatch(upcoming, 7)?.id).toBe(2)
    expect(ownNextMatch(upcoming, '9')?.id).toBe(2)
    expect(ownNextMatch(upcoming, 42)).toBeNull()
    expect(ownNextMatch(upcoming, undefined)).toBeNull()
  })

  it('the newest players come first', () => {
    expect(newestPlayers([makePlayer(1), makePlayer(2), makePlayer(3)], 2).map((p) => p.id)).toEqual([3, 2])
  })
})

describe('the visitor’s next step', () => {
  const base: StepInput = { user: null, phase: 'registration', display: 'PPLS-6.0', registerOpen: true, captain: false }
  const ready = makeUser({ sk_stats_uploaded: true, stats_data: { kd: 2, games_played: 20 } as never })

  it('signed out: sign up, with registration only while it is open', () => {
    expect(nextStep(base)).toMatchObject({ action: { kind: 'auth', mode: 'signup' } })
    expect(nextStep(base).text).toMatch(/register for PPLS-6\.0/)
    const closed = nextStep({ ...base, phase: 'matches', registerOpen: false })
    expect(closed.text).toMatch(/Registration for PPLS-6\.0 is closed/)
    expect(closed.text).not.toMatch(/register for/)
  })

  it('a profile left unfinished asks for what is missing first', () => {
    expect(nextStep({ ...base, user: makeUser({ discord_username: null }) }).action).toMatchObject({ kind: 'auth', mode: 'register', label: 'Link Discord' })
    expect(nextStep({ ...base, user: makeUser() }).action).toMatchObject({ kind: 'stats' })
  })

  it('REGISTER only while the server takes it', () => {
    expect(nextStep({ ...base, user: ready }).action).toMatchObject({ kind: 'auth', mode: 'register', label: 'REGISTER' })
    for (const phase of ['auction', 'matches', 'completed'] as const) {
      const step = nextStep({ ...base, user: ready, phase, registerOpen: false })
      expect(step.action?.kind === 'auth' && step.action.mode === 'register').toBe(false)
      expect(step.text).toMatch(/your stats are saved/)
    }
  })

  it('once in: the auction’s sale, the player’s next match, the captain’s view', () => {
    const inSeason = makeUser({ ...ready, tournament_registered: true })
    expect(nextStep({ ...base, user: inSeason, phase: 'auction', registerOpen: false, ownSale: sale('Rider', 'C', '2026-12-01T10:00:00Z') }).text).toBe('Team C bought you in the auction.')
    expect(nextStep({ ...base, user: inSeason, phase: 'auction', registerOpen: false }).title).toBe('You are in the pool')
    expect(nextStep({ ...base, user: inSeason, phase: 'matches', registerOpen: false, ownMatch: match(12) }).action).toMatchObject({ kind: 'link', to: '/matches/12' })
    expect(nextStep({ ...base, user: makeUser({ ...inSeason, role: 'captain' }), captain: true, phase: 'auction', registerOpen: false }).action).toMatchObject({ to: '/captain' })
  })
})
