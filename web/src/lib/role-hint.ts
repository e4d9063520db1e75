// What the signed-in account was when a page last read it (its role, whether it had registered),
// kept in this browser: a hint for the first render while a stored session is read again, so the
// tournament page lays out its buttons and a captain's block as they will be and nothing moves when
// the session comes. Never a right: what the account may do is the server's answer alone.
import type { Role, User } from './auth'

const KEY = 'pitlane.session-hint'

export type SessionHint = { role: Role; registered: boolean }

export function rememberSession(user: Pick<User, 'role' | 'tournament_registered'> | null) {
  try {
    if (user) window.localStorage.setItem(KEY, JSON.stringify({ role: user.role, registered: !!user.tournament_registered }))
    else window.localStorage.removeItem(KEY)
  } catch {
    /* storage refused: no hint */
  }
}

export function lastSession(): SessionHint | null {
  try {
    const hint = JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as Partial<SessionHint> | null
    return hint && typeof hint.role === 'string' ? { role: hint.role, registered: !!hint.registered } : null
  } catch {
    return null
  }
}
