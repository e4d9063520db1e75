// The cap, the waitlist and the check-in as the public list states them. The server decides who is
// confirmed and who waits; these only order, count and word what it sent. Pure, so they are tested
// without a server.
import type { Checkin, CheckinState, Player, RegistrationsData } from '../types'

/** A card without a status is from before the waitlist: confirmed. */
export const isWaiting = (p: Pick<Player, 'status'>) => p.status === 'waitlisted'

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : 0)

/** The waiting players in the server's order: who joined the waitlist first, then who registered first. */
export function waitlist(players: Player[]): Player[] {
  return players
    .filter(isWaiting)
    .sort((a, b) => time(a.waitlisted_at) - time(b.waitlisted_at) || time(a.created_at) - time(b.created_at) || Number(a.id) - Number(b.id))
}

/** The confirmed players, in the list's order. */
export const confirmed = (players: Player[]) => players.filter((p) => !isWaiting(p))

/** Where a player waits, from 1; 0 when they do not. */
export function waitlistPlace(players: Player[], id: Player['id'] | undefined): number {
  if (id === undefined) return 0
  return waitlist(players).findIndex((p) => String(p.id) === String(id)) + 1
}

/** The counts of a list, as its players say: checkedIn counts everyone on it, confirmedCheckedIn the confirmed only. */
export function counts(players: Player[]) {
  const waiting = players.filter(isWaiting).length
  const checked = players.filter((p) => !!p.checked_in_at)
  return {
    confirmed: players.length - waiting,
    waitlisted: waiting,
    checkedIn: checked.length,
    confirmedCheckedIn: checked.filter((p) => !isWaiting(p)).length,
  }
}

/** The window's state at `now` (the server's rule: open until the deadline, closed once its job ran). */
export function checkinState(c: Checkin | undefined, now: number = Date.now()): CheckinState {
  if (!c) return 'none'
  if (c.closed_at) return 'closed'
  if (!c.deadline) return 'none'
  return Date.parse(c.deadline) > now ? 'open' : 'closing'
}

/** The players the deadline will move to the waitlist: confirmed, not checked in, not captains. */
export function notCheckedIn(data: Pick<RegistrationsData, 'players'>, captains: Set<string> = new Set()): Player[] {
  return confirmed(data.players).filter((p) => !p.checked_in_at && !captains.has(String(p.id)))
}

/**
 * "40 confirmed · 3 on the waitlist" (the cap when there is one: "40 of 48 confirmed"), counted from
 * the players given, or from counts given (the server's, for a list held only in part).
 */
export function placesLine(players: Player[] | { confirmed: number; waitlisted: number }, cap = 0): string {
  const c = Array.isArray(players) ? counts(players) : players
  const head = cap > 0 ? `${c.confirmed} of ${cap} confirmed` : `${c.confirmed} confirmed`
  return c.waitlisted > 0 ? `${head} · ${c.waitlisted} on the waitlist` : head
}
