// Live updates of the registered-players list (topic `registrations`), applied to the cached
// REST answer as idempotent upserts and removals. Pure, so it is tested without a socket.
import type { LiveEvent } from '@/lib/live-client'
import type { Places, Player, RegistrationsData } from '../types'
import { counts } from './waitlist'

type RegistrationEventData = {
  player?: Player
  /** registration.updated: cards whose status or check-in changed. */
  players?: Player[]
  /** registration.places: the cap or the check-in window changed. */
  places?: Places
  id?: Player['id']
  tournament?: string
}

const sameId = (a: Player['id'], b: Player['id'] | undefined) => b !== undefined && String(a) === String(b)

export function upsertPlayer(players: Player[], player: Player, insert: boolean): Player[] {
  const i = players.findIndex((p) => sameId(p.id, player.id))
  if (i === -1) return insert ? [...players, player] : players
  const next = players.slice()
  next[i] = { ...players[i], ...player }
  return next
}

export function removePlayer(players: Player[], id: Player['id'] | undefined): Player[] {
  if (id === undefined) return players
  const next = players.filter((p) => !sameId(p.id, id))
  return next.length === players.length ? players : next
}

export function applyRegistrationEvent(
  state: RegistrationsData | undefined,
  ev: LiveEvent,
): RegistrationsData | undefined {
  if (!state || ev.topic !== 'registrations') return state
  if (typeof ev.seq === 'number' && ev.seq <= state.seq) return state // already in this state
  const data = (ev.data ?? {}) as RegistrationEventData
  if (data.tournament && state.tournament && data.tournament !== state.tournament) {
    return { ...state, seq: ev.seq }
  }
  let players = state.players
  let places: Places | undefined
  switch (ev.event) {
    case 'player.registered':
      if (data.player) players = upsertPlayer(players, data.player, true)
      break
    case 'stats.updated':
      // Stats of someone not on this list do not make them registered.
      if (data.player) players = upsertPlayer(players, data.player, false)
      break
    case 'player.unregistered':
      players = removePlayer(players, data.id ?? data.player?.id)
      break
    case 'registration.updated':
      for (const p of data.players ?? []) players = upsertPlayer(players, p, false)
      break
    case 'registration.places':
      places = data.places
      break
    default:
      break
  }
  const c = counts(players)
  // While later pages are still coming, the list holds part of the players: the counts move by
  // what this event changed, from the server's whole-list counts.
  const before = counts(state.players)
  const partial = !!state.next_cursor
  return {
    ...state,
    ...places,
    players,
    count: partial ? state.count + players.length - state.players.length : players.length,
    confirmed: partial ? (state.confirmed ?? before.confirmed) + c.confirmed - before.confirmed : c.confirmed,
    waitlisted: partial ? (state.waitlisted ?? before.waitlisted) + c.waitlisted - before.waitlisted : c.waitlisted,
    checked_in: partial ? (state.checked_in ?? before.checkedIn) + c.checkedIn - before.checkedIn : c.checkedIn,
    seq: typeof ev.seq === 'number' ? ev.seq : state.seq,
  }
}

const registeredAt = (p: Player) => Date.parse(p.created_at) || 0

/**
 * Players in the list's own order, who registered first (then by id): the pages come newest first
 * (the tab's first view needs only the first), the list keeps that order however they came.
 */
export function inRegistrationOrder(players: Player[]): Player[] {
  return [...players].sort((a, b) => registeredAt(a) - registeredAt(b) || Number(a.id) - Number(b.id))
}

/** Adds a later page's players to the list (those already on it, from a live event, once). */
export function appendPage(state: RegistrationsData, page: Pick<RegistrationsData, 'players' | 'next_cursor'>): RegistrationsData {
  const have = new Set(state.players.map((p) => String(p.id)))
  const fresh = page.players.filter((p) => !have.has(String(p.id)))
  return { ...state, players: fresh.length ? inRegistrationOrder([...state.players, ...fresh]) : state.players, next_cursor: page.next_cursor ?? null }
}

/** Applies, in order, events received while the list was being fetched. */
export function replayEvents(state: RegistrationsData, events: LiveEvent[]): RegistrationsData {
  return events.reduce<RegistrationsData>((s, ev) => applyRegistrationEvent(s, ev) ?? s, state)
}

/** The stats card (docs/site.md): kills = round(kd*games/(1+kd)), deaths = games - kills, when not given. */
export function killsDeaths(p: Pick<Player, 'kd' | 'games_played' | 'kills' | 'deaths'>) {
  const kd = Number(p.kd) || 0
  const games = Number(p.games_played) || 0
  if (p.kills != null && p.deaths != null) return { kills: Number(p.kills), deaths: Number(p.deaths) }
  const kills = Math.round((kd * games) / (1 + kd))
  return { kills, deaths: Math.max(0, games - kills) }
}

export function formatKd(kd: Player['kd']) {
  const n = Number(kd)
  return Number.isFinite(n) ? n.toFixed(2) : '0.00'
}
