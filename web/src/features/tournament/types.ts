export type Badge = { id: number | string; name: string; icon: string; color: string }

export type Player = {
  id: number | string
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
} & Partial<Places>

export type TournamentStatus = 'registration' | 'auction' | 'matches' | 'completed'

export type TournamentInfo = {
  name: string
  status: TournamentStatus
  registration_open: boolean
  count?: number
} & Partial<Places>

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
