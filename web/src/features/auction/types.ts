// The league auction as GET /api/tournaments/{name}/auction answers it (docs/league.md; the full shape at /api/openapi.json).
import type { TournamentStatus } from '@/features/tournament/types'
export type { TournamentStatus }

export type PlayerRef = {
  user_id: number
  name: string
  tier: number
  image: string | null
  kd: number
  games_played: number
  level: number
  /** The player hid their profile: the name and the tier alone (no picture, no figures). */
  hidden?: boolean
}

export type HighBid = { team: string; amount: number }
export type Bid = { team: string; amount: number; at: string }

export type LotStatus = 'open' | 'sold' | 'unsold' | 'voided'

export type Lot = {
  id: number
  player: PlayerRef
  base_price: number
  increment: number
  status: LotStatus
  high_bid: HighBid | null
  ends_at: string
  /** The countdown's time left while the auction is paused (`ends_at` is then stale), else null. */
  paused_left_ms?: number | null
  opened_at: string
  closed_at: string | null
  bids: Bid[] | null
}

export type Sale = { lot_id: number; player: PlayerRef; team: string; price: number; at: string }
export type Unsold = { lot_id: number; player: PlayerRef; at: string }

export type LeagueTeamPlayer = { user_id: number; name: string; image: string | null; price: number; tier: number; hidden?: boolean }

export type LeagueTeam = {
  id: string
  name: string
  logo: string
  captain: { user_id: number; name: string; image: string | null } | null
  purse: number
  purse_left: number
  slots: number
  free_slots: number
  max_bid: number
  players: LeagueTeamPlayer[]
  /** Signed after the auction, beside the players; paid from the same purse. */
  substitutes?: LeagueTeamPlayer[]
}

export type SubstituteRequestStatus = 'pending' | 'approved' | 'refused'

/** A captain's request to sign a player as a substitute, at their tier's base price. */
export type SubstituteRequest = {
  id: number
  team: string
  player: PlayerRef
  price: number
  status: SubstituteRequestStatus
  asked_at: string
  decided_at: string | null
  reason: string
}

/** GET /tournaments/{name}/substitutes: every request, and who may be signed now (matches phase). */
export type Bench = {
  tournament: string
  status: TournamentStatus
  seq: number
  /** Substitutes a team may sign. */
  max: number
  requests: SubstituteRequest[]
  pool: (PlayerRef & { price: number })[]
}

export type TierPrice = { base_price: number; increment: number }

export type AuctionRules = {
  min_price: number
  max_price: number
  slots: number
  lot_seconds: number
  late_bid_seconds: number
  tier_prices: Record<string, TierPrice>
  tier_bands: { tier: number; min_kd: number; min_games: number }[]
}

/** How the auction runs: paused or not, and whose turn it is to nominate (docs/league.md, "The auction's flow"). */
export type AuctionFlow = {
  paused: boolean
  paused_at: string | null
  /** A captain's time to nominate; 0 while organisers open every lot. */
  turn_seconds: number
  /** The letter of the team whose turn it is, or ''. */
  turn: string
  /** Null while a lot is open (the turn waits) or the auction is paused. */
  turn_ends_at: string | null
  /** A paused turn's time left. */
  turn_left_ms: number | null
}

export const NO_FLOW: AuctionFlow = { paused: false, paused_at: null, turn_seconds: 0, turn: '', turn_ends_at: null, turn_left_ms: null }

export type AuctionView = {
  tournament: string
  status: TournamentStatus
  seq: number
  /** The server's clock when the view was read. */
  now: string
  lot: Lot | null
  /** Absent from a server older than the auction's flow. */
  flow?: AuctionFlow
  sold: Sale[]
  unsold: Unsold[]
  pool: PlayerRef[]
  teams: LeagueTeam[]
  rules: AuctionRules
}

export type RoomMessage = {
  id: number
  author: string
  user_id: number
  role: 'captain' | 'admin'
  team?: string
  text: string
  at: string
}

export type RoomView = { tournament: string; seq: number; messages: RoomMessage[] }

export type AuditEntry = {
  /** Rising: newer entries have larger ids (the cursor of a page). */
  id: number
  at: string
  /**
   * Who acted, by account: `name` is the username of a proven Discord link (`discord_verified`), else
   * the account's own name marked "(unverified)"; `user_id` null for the system or an anonymous caller.
   */
  actor: { user_id: number | null; name: string; discord_verified: boolean }
  action: string
  tournament?: string
  target: string
  data: unknown
}

/** One page of the audit log; `next` is the `before` of the following page, null at the end. */
export type AuditPage = { entries: AuditEntry[]; next: number | null; actions?: string[] }
