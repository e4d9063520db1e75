// The league's memory as GET /api/players, /api/players/{id}, /api/tournaments/{name}/teams/{team}
// and /api/leaderboards/{kind} answer it (internal/records).

export type TeamRef = { tournament: string; letter: string; name: string }

export type Point = { at: string; level: number; kills: number; deaths: number; games_played: number; kd: number }

export type SeasonLine = {
  tournament: string
  display_name: string
  season: number | null
  status: string
  team: TeamRef | null
  captain: boolean
  substitute: boolean
  tier: number | null
  price: number | null
  champion: boolean
  matches: number
  kills: number
  deaths: number
  red_cap: number | null
}

export type MatchLine = {
  match_id: number
  tournament: string
  stage: string
  round_number: number
  team: TeamRef
  opponent: TeamRef | null
  won: boolean
  kills: number
  deaths: number
  placement: number
  played_at: string | null
}

export type Badge = { id: number; name: string; icon: string; color: string }

/** A profile; a hidden one read by anyone but its owner has id, name and hidden only. */
export type Profile = {
  id: number
  name: string
  hidden: boolean
  avatar?: string | null
  cart_image?: string | null
  discord?: string
  discord_verified?: boolean
  description?: string
  level?: number
  kills?: number
  deaths?: number
  games_played?: number
  kd?: number
  tier?: number
  stats_verified?: boolean
  titles?: number
  red_caps?: number
  badges?: Badge[]
  history?: Point[]
  seasons?: SeasonLine[]
  matches?: MatchLine[]
}

export type PlayerCard = { id: number; name: string; avatar: string | null; cart_image: string | null; tier: number; kd: number }

export type TeamHit = TeamRef & { display_name: string; logo: string }

export type Found = { players: PlayerCard[]; teams: TeamHit[]; next_cursor: string | null }

export type Member = {
  id: number
  name: string
  avatar: string | null
  hidden: boolean
  captain: boolean
  substitute: boolean
  tier: number | null
  price: number | null
  matches: number
  kills: number
  deaths: number
}

export type Fixture = {
  id: number
  stage: string
  round_number: number
  opponent: TeamRef | null
  status: string
  won: boolean | null
  kills: number
  opponent_kills: number
  scheduled_at: string | null
}

export type TeamPageData = TeamRef & {
  display_name: string
  status: string
  logo: string
  champion: boolean
  captain: Member | null
  roster: Member[]
  fixtures: Fixture[]
  standing: { played: number; won: number; lost: number; points: number; kills: number } | null
  position: number
}

export type BoardKind = 'titles' | 'kills' | 'kd' | 'redcaps' | 'seasons'

export type BoardRow = {
  id: number
  name: string
  avatar?: string | null
  hidden?: boolean
  value: number
  matches: number
  tournament?: string
  display_name?: string
  season?: number | null
  champion?: TeamRef
  red_cap?: string
}

export type Board = { kind: BoardKind; min_matches?: number; rows: BoardRow[]; next_cursor: string | null }

export type Meeting = {
  match_id: number
  tournament: string
  round_number: number
  team: TeamRef
  opponent: TeamRef
  kills: number
  deaths: number
  opponent_kills: number
  opponent_deaths: number
  won: boolean | null
}

export type Versus = {
  player: { id: number; name: string }
  opponent: { id: number; name: string }
  wins: number
  losses: number
  meetings: Meeting[]
}
