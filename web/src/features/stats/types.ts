/** What POST /api/stats/extract answers: every field a string (docs/site.md, "What a card shows"). */
export type ExtractedStats = {
  discord_username: string
  level: string
  kills: string
  deaths: string
  total_games: string
  sk_id: string
  kd_ratio: string
  cart_image: string | null
  /** Ours: fields the player must confirm, with the reader's reason. */
  doubtful?: Partial<Record<ReviewField | 'kd' | 'wins' | 'bots_kills' | 'games', string>>
  /** Ours: fields the screenshot did not show (their values are the seed's defaults). */
  missing?: string[]
  /** Ours: kills, deaths or K/D worked out from the other two (KDR = kills / deaths) rather than
   *  read; each is doubtful too, and never kept before the player confirms it. */
  proposed?: string[]
  /** Ours: how sure the reader is of each field, 0 to 1. */
  confidence?: Record<string, number>
  /** Ours: the screen's other figures, shown for reference (not kills, not games). */
  wins?: string
  bots_kills?: string
  /** The app's, never the server's: the reader refused the screenshot with this message (a 422
   *  telling the player to type their stats); every field is missing, for the player to type. */
  refused?: string
}

/** The fields a player reviews after an upload, as the answer names them in doubtful/missing. */
export type ReviewField = 'name' | 'level' | 'kills' | 'deaths' | 'games' | 'sk_id'

/** What the player approved: the figures as typed (strings, as in the form). */
export type ReviewValues = Record<ReviewField, string>

/** The body of POST /api/stats/save (docs/site.md, "What a card shows"). */
export type SaveStatsPayload = {
  player_name?: string
  sk_id: string
  level: number
  kills: number
  deaths: number
  games_played: number
  kd: number
  cart_image: string | null
  description: string
  category: number
  preferred_role: 'Player'
}

/** A saved stats record from GET /api/stats/get; read defensively. */
export type SavedStats = Partial<SaveStatsPayload> & {
  discord_username?: string | null
  player_name?: string | null
  name?: string | null
  kd_ratio?: number | string | null
  total_games?: number | string | null
  [key: string]: unknown
}

/** What the profile card shows. */
export type CardStats = {
  name: string
  kd: string
  games: number
  level: number
  category: number | null
  kills: number
  deaths: number
  skid: string
  cartImage: string | null
}

export type ProgressStage = 'received' | 'reading' | 'extracting' | 'rendering' | 'done' | 'failed'
