// What the home page's first screen says is happening (docs/site.md, "Pages"): the latest sale, the
// latest result, the player's own next match, and the visitor's own next step, worked out from the
// reads the page already has. Pure, so tested on its own.
import type { User } from '@/lib/auth'
import type { Phase } from '@/lib/phase'
import { statsIncomplete } from '@/lib/profile-complete'
import type { Sale } from '@/features/auction/types'
import { hasDiscord } from '@/features/auth/lib/resume'
import type { Match } from '@/features/matches/types'
import type { Player } from '@/features/tournament/types'

/** The sale made last, or null before the first. */
export function latestSale(sold: readonly Sale[] | undefined): Sale | null {
  let last: Sale | null = null
  for (const s of sold ?? []) if (!last || Date.parse(s.at) > Date.parse(last.at)) last = s
  return last
}

/** The match whose result stands most recently (completed, its report's time or its last change). */
export function latestResult(matches: readonly Match[] | undefined): Match | null {
  const when = (m: Match) => Date.parse(m.reported_at ?? m.updated_at ?? '') || 0
  let last: Match | null = null
  for (const m of matches ?? []) if (m.status === 'completed' && m.winner && (!last || when(m) > when(last))) last = m
  return last
}

/** The side (team letter) the player plays for in a match, or null. */
export function sideOfPlayer(m: Match, userId: number | string): string | null {
  for (const [team, members] of Object.entries(m.members ?? {})) if (members.some((p) => String(p.user_id) === String(userId))) return team
  return null
}

/** The player's own next match among `upcoming` (already in the order they come), or null. */
export function ownNextMatch(upcoming: readonly Match[], userId: number | string | undefined): Match | null {
  if (userId === undefined) return null
  return upcoming.find((m) => sideOfPlayer(m, userId) !== null) ?? null
}

/** The newest players to register, newest first (the list holds them oldest first). */
export function newestPlayers(players: readonly Player[] | undefined, count: number): Player[] {
  return (players ?? []).slice(-count).reverse()
}

/** What the visitor's next step's button does. */
export type StepAction =
  | { kind: 'auth'; mode: 'signup' | 'register'; label: string }
  | { kind: 'stats'; label: string }
  | { kind: 'link'; to: string; label: string; ownCard?: boolean }

export type NextStep = {
  title: string
  text: string
  action?: StepAction
  /** The match the step is about (the player's next one). */
  match?: Match
}

export type StepInput = {
  user: User | null
  phase: Phase | undefined
  /** The season's name on the site. */
  display: string
  /** The server takes a registration now from this visitor (lib/phase, the league's rules). */
  registerOpen: boolean
  /** The account captains a team of the season. */
  captain: boolean
  /** The player's next match (the matches phase), when they play in one. */
  ownMatch?: Match | null
  /** The player's sale (the auction), once a team bought them. */
  ownSale?: Sale | null
}

/**
 * The visitor's own next step: to sign up, to finish the profile, to register while the season takes
 * registrations, and once in, what the season asks of them now. Outside registration nobody is led to
 * Register: their stats wait for the next season.
 */
export function nextStep({ user, phase, display, registerOpen, captain, ownMatch, ownSale }: StepInput): NextStep {
  if (!user) {
    return registerOpen
      ? { title: 'New here?', text: `Sign up, link Discord, upload your stats and register for ${display}: four steps.`, action: { kind: 'auth', mode: 'signup', label: 'Sign Up' } }
      : {
          title: 'New here?',
          text: `Registration for ${display} is closed. Sign up now: your stats are ready when the next season opens.`,
          action: { kind: 'auth', mode: 'signup', label: 'Sign Up' },
        }
  }
  const organiser = user.role === 'admin' || user.role === 'staff'
  if (!organiser && !hasDiscord(user)) {
    return { title: 'Your next step', text: 'Link your Discord name: captains find you by it.', action: { kind: 'auth', mode: 'register', label: 'Link Discord' } }
  }
  if (!organiser && statsIncomplete(user)) {
    return { title: 'Your next step', text: 'Upload a screenshot of your Smash Karts stats: the reader fills your card.', action: { kind: 'stats', label: 'Upload SK stats' } }
  }
  if (phase === 'matches' && ownMatch) {
    return {
      title: 'Your next match',
      match: ownMatch,
      text: captain && !ownMatch.scheduled_at ? 'Agree its time with the other captain on the match page.' : 'Its room and check-in are on the match page.',
      action: { kind: 'link', to: `/matches/${ownMatch.id}`, label: 'Open the match' },
    }
  }
  if (phase === 'auction' && captain) {
    return { title: 'Your team', text: 'Bid and nominate from your captain view.', action: { kind: 'link', to: '/captain', label: 'Captain view' } }
  }
  if (user.tournament_registered) {
    switch (phase) {
      case 'registration':
        return {
          title: 'You are in',
          text: `You are registered for ${display}. Next comes the auction: the captains bid for the players live.`,
          action: { kind: 'link', to: '/tournament?tab=reg', label: 'Your card', ownCard: true },
        }
      case 'auction':
        return ownSale
          ? { title: 'You were bought', text: `Team ${ownSale.team} bought you in the auction.`, action: { kind: 'link', to: '/tournament?tab=teams', label: 'The teams' } }
          : { title: 'You are in the pool', text: 'Your lot may open any moment: watch the live auction.' }
      case 'matches':
        return { title: 'Your season', text: 'No match of yours waits to be played right now.', action: { kind: 'link', to: '/tournament?tab=bracket', label: 'The bracket' } }
    }
  }
  if (registerOpen) {
    return { title: 'Your next step', text: `Your stats are saved: register for ${display}.`, action: { kind: 'auth', mode: 'register', label: 'REGISTER' } }
  }
  if (organiser) {
    return { title: 'The organisers', text: 'Every move of the season is on the organisers’ page.', action: { kind: 'link', to: '/admin', label: 'Organisers’ page' } }
  }
  return {
    title: 'The next season',
    text: `Registration for ${display} is closed: your stats are saved, ready for the next season. It is announced here and in the league news.`,
  }
}
