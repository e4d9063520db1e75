import type { LeagueTeam } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'

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
