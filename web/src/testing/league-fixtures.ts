import type { AuctionView, LeagueTeam, Lot } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'
import type { TournamentInfo, TournamentStatus } from '@/features/tournament/types'

/** PPL7's summary as the server answers it: the demo season keeps the product's own hero. */
export function makeTournamentInfo(status: TournamentStatus, over: Partial<TournamentInfo> = {}): TournamentInfo {
  return {
    name: 'PPL7',
    status,
    registration_open: status === 'registration',
    count: 60,
    display_name: 'PPLS-6.0',
    hero: 'PPLS-6.0 is back',
    hero_default: false,
    description: '',
    starts_at: null,
    ends_at: null,
    banner_url: null,
    ...over,
  }
}

/** FrostSpark under the hammer, B leading at 1,500, an hour to go, unless over says otherwise. */
export function makeLot(over: Partial<Lot> = {}): Lot {
  return {
    id: 7,
    player: { user_id: 30, name: 'FrostSpark', tier: 2, image: null, kd: 2.43, games_played: 2641, level: 76 },
    base_price: 1400,
    increment: 100,
    status: 'open',
    high_bid: { team: 'B', amount: 1500 },
    ends_at: new Date(Date.now() + 3_600_000).toISOString(),
    opened_at: new Date().toISOString(),
    closed_at: null,
    bids: [],
    ...over,
  }
}

/** PPL7's auction with a lot open (makeLot), ZeroKing still to go and teams A and B, unless over says otherwise. */
export function makeAuctionView(over: Partial<AuctionView> = {}): AuctionView {
  return {
    tournament: 'PPL7',
    status: 'auction',
    seq: 40,
    now: new Date().toISOString(),
    lot: makeLot(),
    sold: [],
    unsold: [],
    pool: [{ user_id: 31, name: 'ZeroKing', tier: 4, image: null, kd: 0.7, games_played: 90, level: 9 }],
    teams: [makeLeagueTeam('A', 2), makeLeagueTeam('B', 3)],
    rules: { min_price: 1100, max_price: 2200, slots: 5, lot_seconds: 20, late_bid_seconds: 10, tier_prices: {}, tier_bands: [] },
    ...over,
  }
}

/** Team `id` of the auction, captained by user `captainId`, two players bought, unless over says otherwise. */
export function makeLeagueTeam(id: string, captainId: number, over: Partial<LeagueTeam> = {}): LeagueTeam {
  return {
    id,
    name: `Team ${id}`,
    logo: '',
    captain: { user_id: captainId, name: `Cap ${id}`, image: null },
    purse: 12_000,
    purse_left: 7600,
    slots: 5,
    free_slots: 3,
    max_bid: 2200,
    players: [
      { user_id: 100 + captainId, name: `Bought ${id}1`, image: null, price: 2200, tier: 1 },
      { user_id: 200 + captainId, name: `Bought ${id}2`, image: null, price: 2200, tier: 1 },
    ],
    ...over,
  }
}

/** A live quarter-final of PPL7, A (Ace, Bo) at home to H (Hex), unless over says otherwise. */
export function makeMatch(over: Partial<Match> = {}): Match {
  return {
    id: 7,
    tournament: 'PPL7',
    stage: 'quarter_final',
    round_number: 1,
    slot: 0,
    team1: { id: 'A', name: 'Team A' },
    team2: { id: 'H', name: 'Thunder' },
    winner: null,
    status: 'scheduled',
    scheduled_at: null,
    room: '',
    next_match: 9,
    reported_by: null,
    reported_at: null,
    report: null,
    proof: null,
    dispute_reason: '',
    confirm_by: null,
    forfeit: false,
    lineups: {},
    members: {
      A: [
        { user_id: 11, name: 'Ace' },
        { user_id: 12, name: 'Bo' },
      ],
      H: [{ user_id: 18, name: 'Hex' }],
    },
    ...over,
  }
}
