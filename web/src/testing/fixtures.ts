import type { User } from '@/lib/auth'
import type { Player } from '@/features/tournament/types'
import type { ExtractedStats } from '@/features/stats/types'

export function makeUser(over: Partial<User> = {}): User {
  return {
    id: 7,
    email: 'rider@example.com',
    name: 'Rider',
    role: 'user',
    email_verified: true,
    discord_username: 'rider#1',
    discord_verified: false,
    sk_stats_verified: false,
    sk_stats_uploaded: false,
    tournament_registered: false,
    stats_data: null,
    ...over,
  }
}

export function makePlayer(id: number, over: Partial<Player> = {}): Player {
  return {
    id,
    name: `Player ${id}`,
    image: null,
    s_id: `SK${id}`,
    kd: 1.5,
    games_played: 100,
    level: 20,
    description: '',
    discord_id: `p${id}`,
    is_discord_verified: true,
    cart_image: null,
    badges: [],
    created_at: '2026-01-01T00:00:00Z',
    ...over,
  }
}

/** The answer to a real capture of the game's Stats tab: no name, SK id or games (the reader's
 *  defaults stand in), the screen's wins and bots' kills beside. */
export function statsTabAnswer(over: Partial<ExtractedStats> = {}): ExtractedStats {
  return {
    discord_username: 'Player',
    level: '24',
    kills: '4791',
    deaths: '2678',
    total_games: '0',
    sk_id: 'N/A',
    kd_ratio: '1.79',
    cart_image: null,
    wins: '325',
    bots_kills: '209',
    missing: ['name', 'games', 'sk_id'],
    ...over,
  }
}
