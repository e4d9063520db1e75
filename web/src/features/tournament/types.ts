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
}

export type RegistrationsData = {
  tournament: string
  count: number
  seq: number
  players: Player[]
}

export type TournamentStatus = 'registration' | 'auction' | 'matches' | 'completed'

export type TournamentInfo = {
  name: string
  status: TournamentStatus
  registration_open: boolean
  count?: number
}
