// The league's shapes as the server sends them (internal/api/openapi.json: Match, Bracket, …).

export type MatchStatus = 'scheduled' | 'live' | 'reported' | 'completed' | 'disputed' | 'cancelled'

export type TeamRef = { id: string; name: string }
export type Member = { user_id: number; name: string; substitute?: boolean }

export type PlayerLine = {
  user_id: number
  name?: string
  team: string
  kills: number
  deaths: number
  placement: number
}

/** The part of a draw a round is in: a double elimination's brackets and grand final, a Swiss stage. */
export type BracketPart = 'winners' | 'losers' | 'grand_final' | 'swiss'

export type Match = {
  id: number
  tournament?: string
  /** The tournament's phase: a match is played or ruled on only in its matches phase. */
  season_status?: 'registration' | 'auction' | 'matches' | 'completed'
  stage: string
  bracket?: BracketPart
  round_number: number
  slot: number
  team1: TeamRef | null
  team2: TeamRef | null
  winner: string | null
  status: MatchStatus
  scheduled_at: string | null
  room: string
  room_set?: boolean
  next_match: number | null
  next_side?: number
  /** Double elimination: where a winners-bracket loser plays next. */
  loser_match?: number | null
  loser_side?: number
  reported_by: string | null
  reported_at: string | null
  report: { winner: string; players: PlayerLine[] } | null
  proof: string | null
  dispute_reason: string
  confirm_by: string | null
  forfeit: boolean
  lineups: Record<string, Member[]>
  members?: Record<string, Member[]>
  updated_at?: string
  /** By team letter: when each side's captain checked in for the match's time. */
  checked_in?: Record<string, string>
  /** Times one side proposed (ISO, soonest first), waiting for the other side; null when none stands. */
  proposal?: { by: string; times: string[] } | null
  /** When the check-in opens (an hour before the time); it closes at the time. */
  checkin_opens_at?: string | null
  /** The server's: when the match is live (its agreed time, or both check-ins if earlier); null while neither. */
  live_from?: string | null
}

export type Round = {
  number: number
  stage: string
  bracket?: BracketPart
  matches: Match[]
  /** A Swiss round's team that sits out (a win). */
  bye?: TeamRef | null
}

/** A Swiss stage's rounds and top cut, a double elimination's grand final reset. */
export type FormatOptions = { rounds?: number; top_cut?: number; grand_final_reset?: boolean }

/** What an organiser makes the fixtures with. */
export type FormatInput = { format: string; rounds?: number; top_cut?: number; grand_final_reset?: boolean }

/** A seeded team; `withdrawn` when it withdrew from the season (it plays no more). */
export type Seed = { seed: number; team: TeamRef; strength: number; withdrawn?: boolean }

export type Bracket = {
  tournament: string
  format: string
  seq: number
  seeds: Seed[]
  seeded_by: string
  rounds: Round[]
  champion: TeamRef | null
  options?: FormatOptions
}

export type Scoring = { win: number; loss: number; kills_per_point: number }

export type TableRow = {
  team: string
  name: string
  played: number
  won: number
  lost: number
  kills: number
  deaths: number
  kill_difference: number
  kill_points: number
  points: number
  /** Swiss: rounds sat out (each a win), and the points of the opponents played. */
  byes?: number
  buchholz?: number
  /** The team withdrew: it keeps what it won and plays no more. */
  withdrawn?: boolean
}

export type Standings = {
  tournament: string
  seq: number
  stage: string
  scoring: Scoring
  tie_break: string[]
  rows: TableRow[]
}

export type RedCapRow = {
  user_id: number
  name: string
  team: string
  team_name: string
  kills: number
  deaths: number
  matches: number
}

export type RedCapData = { tournament: string; seq: number; rows: RedCapRow[] }

export type TournamentPhase = 'registration' | 'auction' | 'matches' | 'completed'

export type Season = {
  name: string
  /** The name it goes by on the site (its name until an organiser sets one). */
  display_name?: string
  status: TournamentPhase
  purse?: number
  season?: number
  format?: string
  scoring?: Scoring
  created_at?: string
  current?: boolean
  /** The season's days (GET /api/tournaments carries them with its identity). */
  starts_at?: string | null
  ends_at?: string | null
}

export type LeagueTeam = {
  id: string
  name: string
  captain: { user_id: number; name: string; image: string | null } | null
  players: { user_id: number; name: string; image: string | null }[]
}

/** A report or a ruling as the server takes it. */
export type ResultInput = {
  winner: string
  players: { userId: number; kills: number; deaths: number; placement: number }[]
}
