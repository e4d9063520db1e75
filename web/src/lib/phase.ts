// What each page offers in a season's phase, to whoever looks at it: the one place the pages ask. The
// rules are the server's own (phase-rules.json is internal/tournament's table, and a Go test keeps the
// two equal), so a page never offers a button the server would refuse in that phase.
import rules from './phase-rules.json'
import { can } from './authorization'
import { phaseName } from './season-name'
import type { User } from './auth'

export type Phase = 'registration' | 'auction' | 'matches' | 'completed'

/** An action of the league's rules table, as the server names it ("bid", "play a match"). */
export type Action = keyof typeof rules

/** Who looks: signed out, a player, a captain, or an organiser of the season. */
export type Viewer = 'guest' | 'player' | 'captain' | 'organiser'

type Rule = { who: readonly string[]; phases: readonly string[] }

/** The kind of viewer the account is in `tournament`. */
export function viewerOf(user: Pick<User, 'role'> & Partial<Pick<User, 'staff_of'>> | null | undefined, tournament?: string): Viewer {
  if (!user) return 'guest'
  if (can(user, 'organise', tournament)) return 'organiser'
  return user.role === 'captain' ? 'captain' : 'player'
}

/**
 * Whether the server takes `action` in `phase` from this viewer. Every signed-in account is a player
 * for itself; whether a captain captains the right team stays the page's own check.
 */
export function allows(action: Action, phase: Phase | undefined, viewer: Viewer): boolean {
  const r: Rule = rules[action]
  if (!phase || !r.phases.includes(phase) || viewer === 'guest') return false
  return r.who.some((who) => who === 'player' || who === viewer)
}

/** Why an action is not offered in a phase: the server's own refusal, in the page's words. */
export function closedBecause(action: Action, phase: Phase | undefined): string {
  if (!phase) return ''
  const open = (rules[action] as Rule).phases
  return open.includes(phase) ? '' : `Only during ${open.join(' or ')}: now ${phaseName(phase).toLowerCase()}.`
}

/** What the pages offer in a phase to a viewer. */
export type Offers = {
  /** /captain: the lot and its countdown ("under the hammer"), before the auction ends. */
  lotStage: boolean
  /** /captain: the bid buttons (and the phone's bid bar). */
  bid: boolean
  /** /captain: nominating on the team's turn. */
  nominate: boolean
  /** /captain: the substitutes' bench (asked for in the matches, read once completed). */
  bench: boolean
  /** /captain, /admin: the captains room. */
  captainsRoom: boolean
  /** /auction and the tournament page: "LIVE", the countdowns and how many are still to go. */
  liveAuction: boolean
  /** The registration card and the profile. */
  register: boolean
  unregister: boolean
  checkIn: boolean
  /** The tournament and captain pages: a signed-out visitor may sign in as a captain. */
  captainSignIn: boolean
  /** The captain's and the tournament page's matches block. */
  matches: boolean
}

export function offersFor(phase: Phase | undefined, viewer: Viewer): Offers {
  return {
    lotStage: phase === 'registration' || phase === 'auction',
    bid: allows('bid', phase, viewer),
    nominate: allows("nominate a player on the team's turn", phase, viewer),
    bench: allows('ask to sign a substitute', phase, viewer) || (viewer === 'captain' && phase === 'completed'),
    captainsRoom: allows('speak in the captains room', phase, viewer),
    liveAuction: phase === 'auction',
    // A visitor signed out is offered what a player is: they sign in (or up) on the way.
    register: allows('register', phase, viewer === 'guest' ? 'player' : viewer),
    unregister: allows('unregister', phase, viewer),
    checkIn: allows('check in', phase, viewer),
    captainSignIn: viewer === 'guest',
    matches: phase === 'matches' || phase === 'completed',
  }
}
