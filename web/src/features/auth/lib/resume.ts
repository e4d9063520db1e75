// Where the auth modal opens and where a signed-in player resumes (docs/site.md, "The player's path").
import type { User } from '@/lib/auth'
import { statsIncomplete } from '@/lib/profile-complete'
import type { AuthMode } from '@/lib/window-events'

export type AuthView = 'signin' | 'signup' | 'otp' | 'discord' | 'stats' | 'registered' | 'profile' | 'reset' | 'second-factor'

/**
 * The Discord step is done with a name: a typed one (shown unverified) or a proven link (OAuth2 on the
 * profile, or the bot's !register), which the server alone marks discord_verified.
 */
export function hasDiscord(user: User): boolean {
  return user.discord_verified || !!user.discord_username?.trim()
}

/**
 * The four-step progress: 1 e-mail verified (sign-up), 2 Discord username, 3 stats upload (done once
 * saved with its figures), 4 tournament registration. Returns the step the player is on, 5 when all
 * are done.
 */
export function currentStep(user: User | null): 1 | 2 | 3 | 4 | 5 {
  if (!user || !user.email_verified) return 1
  if (!hasDiscord(user)) return 2
  if (statsIncomplete(user)) return 3
  if (!user.tournament_registered) return 4
  return 5
}

export function resolveView(mode: AuthMode, user: User | null): AuthView {
  if (!user) {
    if (mode === 'statsUpload') return 'stats'
    if (mode === 'login') return 'signin'
    return 'signup'
  }
  if (mode === 'login') return 'profile'
  if (mode === 'statsUpload') return 'stats'
  // signup and register while signed in resume where the player left off.
  if (user.tournament_registered) return 'registered'
  if (!user.email_verified) return 'signup'
  if (!hasDiscord(user)) return 'discord'
  return 'stats'
}

/**
 * A player's profile left unfinished: no Discord name, or its stats not saved or missing figures.
 * Organisers (and an organiser's account signed in as a player until its second factor) need no stats.
 */
export function profileIncomplete(user: User): boolean {
  if (!user.email_verified || user.role === 'admin' || user.role === 'staff' || user.security?.organiser_locked) return false
  return !hasDiscord(user) || statsIncomplete(user)
}

/**
 * After a sign-in, where the modal goes next (or null: the sign-in was the whole errand). A plain
 * sign-in of a player whose profile was left unfinished asks for what is missing, every time, until
 * it is done (docs/site.md, "The player's path").
 */
export function viewAfterSignIn(mode: AuthMode, user: User, viaGoogle: boolean, pendingRegister: boolean): AuthView | null {
  if (pendingRegister) return resolveView('register', user)
  if (mode === 'login') {
    // Google sign-in: Discord step, then stats upload, even from a plain login.
    if (viaGoogle && !hasDiscord(user)) return 'discord'
    if (!profileIncomplete(user)) return null
    return hasDiscord(user) ? 'stats' : 'discord'
  }
  if (viaGoogle) return hasDiscord(user) ? resolveView('register', user) : 'discord'
  return resolveView(mode === 'statsUpload' ? 'statsUpload' : 'register', user)
}

export const STEP_LABELS = ['Sign up', 'Discord', 'SK stats', 'Register'] as const
