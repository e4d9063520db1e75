import { describe, expect, it } from 'vitest'
import { makePlayer } from '@/testing/fixtures'
import { isPlayerSort, samePlayer, searchPlayers, sortPlayers } from './player-list'

// Registration order (oldest first), as the server lists them.
const players = [
  makePlayer(1, { name: 'Zoë Drift', discord_id: 'zoe_d', kd: 1.2, level: 30, games_played: 500, created_at: '2026-01-01T10:00:00Z' }),
  makePlayer(2, { name: 'ace', discord_id: 'turbo.ace', kd: 3.1, level: 12, games_played: 80, created_at: '2026-01-02T10:00:00Z' }),
  makePlayer(3, { name: 'Blaze', discord_id: 'blaze#0001', kd: 3.1, level: 55, games_played: 1200, created_at: '2026-01-03T10:00:00Z' }),
  makePlayer(4, { name: 'Player 10', discord_id: 'p10', kd: '0.5', level: null, games_played: null, created_at: '2026-01-03T10:00:00Z' }),
]
const names = (ps: { name: string }[]) => ps.map((p) => p.name)

describe('searchPlayers', () => {
  it('matches the name or the Discord name, ignoring case and accents', () => {
    expect(names(searchPlayers(players, 'zoe'))).toEqual(['Zoë Drift'])
    expect(names(searchPlayers(players, 'TURBO'))).toEqual(['ace'])
    expect(names(searchPlayers(players, '#0001'))).toEqual(['Blaze'])
  })

  it('matches the SK id too, and an empty query keeps everyone', () => {
    expect(names(searchPlayers(players, 'sk4'))).toEqual(['Player 10'])
    expect(searchPlayers(players, '   ')).toBe(players)
    expect(searchPlayers(players, 'nobody')).toEqual([])
  })
})

describe('sortPlayers', () => {
  it('newest and oldest by registration time; same time keeps the later registration newer', () => {
    expect(names(sortPlayers(players, 'newest'))).toEqual(['Player 10', 'Blaze', 'ace', 'Zoë Drift'])
    expect(names(sortPlayers(players, 'oldest'))).toEqual(['Zoë Drift', 'ace', 'Blaze', 'Player 10'])
  })

  it('by name, case-insensitive with numbers in order', () => {
    const more = [...players, makePlayer(5, { name: 'Player 9' })]
    expect(names(sortPlayers(more, 'name'))).toEqual(['ace', 'Blaze', 'Player 9', 'Player 10', 'Zoë Drift'])
  })

  it('K/D, level, games and kills from high to low, ties in registration order', () => {
    expect(names(sortPlayers(players, 'kd'))).toEqual(['ace', 'Blaze', 'Zoë Drift', 'Player 10'])
    expect(names(sortPlayers(players, 'level'))).toEqual(['Blaze', 'Zoë Drift', 'ace', 'Player 10'])
    expect(names(sortPlayers(players, 'games'))).toEqual(['Blaze', 'Zoë Drift', 'ace', 'Player 10'])
    expect(names(sortPlayers(players, 'kills'))[0]).toBe('Blaze')
  })

  it('returns a copy', () => {
    const copy = [...players]
    sortPlayers(players, 'name')
    expect(players).toEqual(copy)
  })
})

it('isPlayerSort and samePlayer', () => {
  expect(isPlayerSort('kd')).toBe(true)
  expect(isPlayerSort('email')).toBe(false)
  expect(samePlayer(7, '7')).toBe(true)
  expect(samePlayer(undefined, undefined)).toBe(false)
})
