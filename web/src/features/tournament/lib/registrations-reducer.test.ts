import { describe, expect, it } from 'vitest'
import { makePlayer } from '@/testing/fixtures'
import type { LiveEvent } from '@/lib/live-client'
import { appendPage, applyRegistrationEvent, inRegistrationOrder, killsDeaths, replayEvents } from './registrations-reducer'
import type { RegistrationsData } from '../types'

const state = (seq = 10): RegistrationsData => ({ tournament: 'PPL7', count: 2, seq, players: [makePlayer(1), makePlayer(2)] })
const ev = (seq: number, event: string, data: unknown): LiveEvent => ({ type: 'event', topic: 'registrations', seq, event, data })

describe('applyRegistrationEvent', () => {
  it('player.registered adds the player (upsert)', () => {
    const next = applyRegistrationEvent(state(), ev(11, 'player.registered', { player: makePlayer(3) }))!
    expect(next.players.map((p) => p.id)).toEqual([1, 2, 3])
    expect(next.count).toBe(3)
    expect(next.seq).toBe(11)
  })

  it('is idempotent: registering a present player updates it in place', () => {
    const next = applyRegistrationEvent(state(), ev(11, 'player.registered', { player: makePlayer(2, { name: 'Renamed' }) }))!
    expect(next.players).toHaveLength(2)
    expect(next.players[1].name).toBe('Renamed')
  })

  it('player.unregistered removes by id, and twice is harmless', () => {
    const once = applyRegistrationEvent(state(), ev(11, 'player.unregistered', { id: 1 }))!
    expect(once.players.map((p) => p.id)).toEqual([2])
    const twice = applyRegistrationEvent(once, ev(12, 'player.unregistered', { id: 1 }))!
    expect(twice.players.map((p) => p.id)).toEqual([2])
    expect(twice.count).toBe(1)
  })

  it('stats.updated updates a listed player but never adds one', () => {
    const s = applyRegistrationEvent(state(), ev(11, 'stats.updated', { player: makePlayer(1, { kd: 3 }) }))!
    expect(s.players[0].kd).toBe(3)
    const t = applyRegistrationEvent(s, ev(12, 'stats.updated', { player: makePlayer(9) }))!
    expect(t.players.map((p) => p.id)).toEqual([1, 2])
  })

  it('ignores events the list already contains (seq at or below the read)', () => {
    const s = state(10)
    expect(applyRegistrationEvent(s, ev(10, 'player.registered', { player: makePlayer(5) }))).toBe(s)
  })

  it('does nothing without a cached list (the refetch will carry it)', () => {
    expect(applyRegistrationEvent(undefined, ev(1, 'player.registered', { player: makePlayer(5) }))).toBeUndefined()
  })

  it('replays, in order, what arrived while the list was fetched', () => {
    const s = replayEvents(state(10), [
      ev(9, 'player.unregistered', { id: 1 }),
      ev(11, 'player.registered', { player: makePlayer(3) }),
      ev(12, 'player.unregistered', { id: 2 }),
    ])
    expect(s.players.map((p) => p.id)).toEqual([1, 3])
    expect(s.seq).toBe(12)
  })
})

describe('killsDeaths', () => {
  it('derives kills and deaths from K/D and games', () => {
    expect(killsDeaths({ kd: 3, games_played: 100 })).toEqual({ kills: 75, deaths: 25 })
    expect(killsDeaths({ kd: 0, games_played: 10 })).toEqual({ kills: 0, deaths: 10 })
    expect(killsDeaths({ kd: 2, games_played: 9, kills: 4, deaths: 1 })).toEqual({ kills: 4, deaths: 1 })
  })
})

describe('the waitlist and the check-in, live', () => {
  it('registration.updated changes the cards it carries and recounts; it adds nobody', () => {
    const next = applyRegistrationEvent(
      state(),
      ev(11, 'registration.updated', {
        players: [makePlayer(2, { status: 'waitlisted', waitlisted_at: '2026-01-02T00:00:00Z' }), makePlayer(9, { status: 'confirmed' })],
      }),
    )!
    expect(next.players.map((p) => [p.id, p.status])).toEqual([
      [1, undefined],
      [2, 'waitlisted'],
    ])
    expect([next.confirmed, next.waitlisted]).toEqual([1, 1])
  })

  it('registration.places takes the cap and the window', () => {
    const checkin = { opened_at: '2026-01-01T00:00:00Z', deadline: '2026-01-02T00:00:00Z', closed_at: null }
    const next = applyRegistrationEvent(
      state(),
      ev(11, 'registration.places', { places: { cap: 40, confirmed: 2, waitlisted: 0, checked_in: 0, checkin, checkin_state: 'open' } }),
    )!
    expect(next.cap).toBe(40)
    expect(next.checkin).toEqual(checkin)
    expect(next.players).toHaveLength(2)
  })
})

describe('a list read a page at a time', () => {
  const firstPage = (): RegistrationsData => ({ ...state(), count: 5, confirmed: 5, waitlisted: 0, next_cursor: 'c1' })

  it('keeps the whole list counts while later pages are coming, moved by live events', () => {
    const added = applyRegistrationEvent(firstPage(), ev(11, 'player.registered', { player: makePlayer(9) }))!
    expect(added.count).toBe(6)
    expect(added.confirmed).toBe(6)
    const removed = applyRegistrationEvent(added, ev(12, 'player.unregistered', { id: 1 }))!
    expect(removed.count).toBe(5)
  })

  it('adds a later page once: a player a live event already added is not repeated', () => {
    const live = applyRegistrationEvent(firstPage(), ev(11, 'player.registered', { player: makePlayer(4) }))!
    const next = appendPage(live, { players: [makePlayer(3), makePlayer(4), makePlayer(5)], next_cursor: null })
    expect(next.players.map((p) => p.id)).toEqual([1, 2, 3, 4, 5])
    expect(next.next_cursor).toBeNull()
  })

  it('keeps the list in registration order though the pages come newest first', () => {
    const at = (min: number) => `2026-11-01T12:${String(min).padStart(2, '0')}:00Z`
    const newest = { ...firstPage(), players: inRegistrationOrder([makePlayer(7, { created_at: at(30) }), makePlayer(6, { created_at: at(20) })]) }
    const next = appendPage(newest, { players: [makePlayer(5, { created_at: at(10) }), makePlayer(2, { created_at: at(10) })], next_cursor: null })
    expect(next.players.map((p) => p.id)).toEqual([2, 5, 6, 7])
  })
})
