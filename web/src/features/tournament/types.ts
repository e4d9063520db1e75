export type Badge = { id: number | string; name: string; icon: string; color: string }

export type Player = {
  id: number | string
  /** On a page read in an order (sort=): where this waiting player waits, from 1. */
  place?: number
  name: string
  image: string | null
  s_id: string | null
  kd: number | string | null
  kills?: number | null
  deaths?: number | null
  games_played: number | null
  level: number | string | null
  description: string | null
  discord_id: string | null
  is_discord_verified: boolean
  cart_image: string | null
  /** The player's tier, 1 (strongest) to 4: from their stats, or an organiser's. */
  category?: number
  badges: Badge[] | null
  created_at: string
  /** Confirmed (counts against the cap, may be put up in the auction) or waiting for a place. */
  status?: RegistrationStatus
  checked_in_at?: string | null
  /** When the player joined the waitlist: its order (then created_at). */
  waitlisted_at?: string | null
  /** The player hid their profile: their name and registration alone (no picture, no figures). */
  hidden?: boolean
}

export type RegistrationStatus = 'confirmed' | 'waitlisted'

/** A season's check-in window: opened by an organiser before the auction, closed at its deadline. */
export type Checkin = { opened_at: string | null; deadline: string | null; closed_at: string | null }

export type CheckinState = 'none' | 'open' | 'closing' | 'closed'

/** A season's registration: its cap (0: none), its confirmed and waiting players, and its check-in. */
export type Places = {
  cap: number
  confirmed: number
  waitlisted: number
  checked_in: number
  checkin: Checkin
  checkin_state: CheckinState
}

export type RegistrationsData = {
  tournament: string
  /** Every player on the list, confirmed or waiting. */
  count: number
  seq: number
  players: Player[]
  /** The next page's cursor while the list is still coming a page at a time; null once whole. */
  next_cursor?: string | null
} & Partial<Places>

export type TournamentStatus = 'registration' | 'auction' | 'matches' | 'completed'

/** A season's own identity, as an organiser set it on /admin (GET /api/tournament/info carries it). */
export type SeasonIdentity = {
  /** The name the season goes by on the site (its tournament's name until an organiser sets one). */
  display_name: string
  /** The home page's hero line: the season's own, else the default built from the display name. */
  hero: string
  /** The organisers set no hero line: `hero` is the default. */
  hero_default: boolean
  description: string
  /** Calendar days, YYYY-MM-DD. */
  starts_at: string | null
  ends_at: string | null
  banner_url: string | null
}

export type TournamentInfo = {
  name: string
  status: TournamentStatus
  registration_open: boolean
  count?: number
} & Partial<SeasonIdentity> &
  Partial<Places>

/** The signed-in player's registration, as register, check-in and status answer it. */
export type Entry = {
  tournament?: string
  registered: boolean
  status?: RegistrationStatus
  /** From 1, on the waitlist only. */
  waitlist_place?: number
  checked_in_at?: string
  message?: string
}
