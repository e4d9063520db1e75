import type { Match } from '@/features/matches/types'

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
