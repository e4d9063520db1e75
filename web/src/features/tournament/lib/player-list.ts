// Search and sort of the registered-players list. Pure, so it is tested without rendering.
import type { Player } from '../types'
import { killsDeaths } from './registrations-reducer'

export const PLAYER_SORTS = [
  { key: 'newest', label: 'Newest first' },
  { key: 'oldest', label: 'Oldest first' },
  { key: 'name', label: 'Name (A–Z)' },
  { key: 'kd', label: 'K/D (high to low)' },
  { key: 'level', label: 'Level (high to low)' },
  { key: 'games', label: 'Games (most first)' },
  { key: 'kills', label: 'Kills (most first)' },
] as const

export type PlayerSort = (typeof PLAYER_SORTS)[number]['key']

export function isPlayerSort(v: string | null | undefined): v is PlayerSort {
  return PLAYER_SORTS.some((s) => s.key === v)
}

const fold = (s: string | null | undefined) =>
  (s ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()

/** Players whose name, Discord name or SK id contains the query (case and accents ignored). */
export function searchPlayers(players: Player[], query: string): Player[] {
  const q = fold(query.trim())
  if (!q) return players
  return players.filter((p) => fold(p.name).includes(q) || fold(p.discord_id).includes(q) || fold(p.s_id).includes(q))
}

const num = (v: unknown) => {
  const n = Number(v)
  return Number.isFinite(n) ? n : 0
}
const time = (p: Player) => {
  const t = Date.parse(p.created_at)
  return Number.isFinite(t) ? t : 0
}
// Made on the first sort by name: the page's first Intl object loads the browser's locale data, a
// task of its own (about 10 ms here) that the list's default order (newest first) does not need.
let collator: Intl.Collator | undefined
const byName = () => (collator ??= new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }))

/**
 * A sorted copy. `players` comes in registration order (oldest first); that order breaks ties,
 * so equal K/D or level keep a stable, meaningful order.
 */
export function sortPlayers(players: Player[], sort: PlayerSort): Player[] {
  const indexed = players.map((p, i) => ({ p, i }))
  const desc = (f: (p: Player) => number) => (a: { p: Player; i: number }, b: { p: Player; i: number }) =>
    f(b.p) - f(a.p) || a.i - b.i
  let cmp: (a: { p: Player; i: number }, b: { p: Player; i: number }) => number
  switch (sort) {
    case 'newest':
      cmp = (a, b) => time(b.p) - time(a.p) || b.i - a.i
      break
    case 'oldest':
      cmp = (a, b) => time(a.p) - time(b.p) || a.i - b.i
      break
    case 'name':
      cmp = (a, b) => byName().compare(a.p.name, b.p.name) || a.i - b.i
      break
    case 'kd':
      cmp = desc((p) => num(p.kd))
      break
    case 'level':
      cmp = desc((p) => num(p.level))
      break
    case 'games':
      cmp = desc((p) => num(p.games_played))
      break
    case 'kills':
      cmp = desc((p) => killsDeaths(p).kills)
      break
  }
  return indexed.sort(cmp).map((x) => x.p)
}

export const samePlayer = (a: Player['id'] | null | undefined, b: Player['id'] | null | undefined) =>
  a != null && b != null && String(a) === String(b)
