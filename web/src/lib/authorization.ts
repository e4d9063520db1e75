// Who may do what, asked in one place. The server checks every call again (docs/api.md): these only
// decide what a page offers, so an organiser sees the organisers' tools and a player does not.
import type { ReactNode } from 'react'
import type { Role, User } from './auth'

/**
 * organise: run the league (phases, registration, captains, the auction, matches and rulings, the
 * presenter's deck); staff: a captain or an organiser (the captain sign-in and the staff's own page);
 * metrics: read the product's metrics and remind stalled players (/admin/metrics), the site's
 * organisers' alone, as the server's metrics service says (a co-organiser runs one season, the
 * metrics are the whole site's).
 */
export type Permission = 'organise' | 'staff' | 'metrics'

type Someone = (Pick<User, 'role'> & Partial<Pick<User, 'staff_of'>>) | null | undefined

const ROLES: Record<Permission, readonly Role[]> = {
  organise: ['admin'],
  staff: ['captain', 'staff', 'admin'],
  metrics: ['admin'],
}

/**
 * Whether the account may do this; for 'organise', in `tournament` when given: the site's organisers
 * everywhere, a co-organiser (role 'staff') in the tournaments of `staff_of` only.
 */
export function can(user: Someone, permission: Permission, tournament?: string): boolean {
  if (!user) return false
  if (ROLES[permission].includes(user.role)) return true
  if (permission !== 'organise') return false
  const staffOf = user.staff_of ?? []
  return tournament === undefined ? staffOf.length > 0 : staffOf.includes(tournament)
}

/** Whether the account runs the whole site (ADMIN_EMAILS): it grants co-organisers, creates seasons, presents. */
export const runsTheSite = (user: Someone) => !!user && user.role === 'admin'

/** The staff role of the account ('captain', 'staff' or 'admin'), or null for a player. */
export function staffRole(user: Someone): 'captain' | 'staff' | 'admin' | null {
  return user && can(user, 'staff') ? (user.role as 'captain' | 'staff' | 'admin') : null
}

type CaptainedTeam = { captain?: { user_id: number | string } | null }

/** Whether the account (or user id) captains this team. */
export function isCaptainOf(user: Pick<User, 'id'> | number | string | null | undefined, team: CaptainedTeam | null | undefined): boolean {
  const id = user !== null && typeof user === 'object' ? user.id : user
  if (id === undefined || id === null || !team?.captain) return false
  return String(team.captain.user_id) === String(id)
}

/** The team the account (or user id) captains among these, if any. */
export function captainedBy<T extends CaptainedTeam>(teams: readonly T[] | undefined, user: Parameters<typeof isCaptainOf>[0]): T | null {
  return teams?.find((t) => isCaptainOf(user, t)) ?? null
}

/** Shows `children` to those who may, `otherwise` (nothing by default) to the rest. */
export function Can({ user, permission, children, otherwise = null }: { user: Someone; permission: Permission; children: ReactNode; otherwise?: ReactNode }) {
  return can(user, permission) ? children : otherwise
}
