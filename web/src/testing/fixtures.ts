import type { User } from '@/lib/auth'
import type { Player } from '@/features/tournament/types'

export function makeUser(over: Partial<User> = {}): User {
  return {
    id: 7,
    email: 'rider@example.com',
    name: 'Rider',
    role: 'user',
    email_verified: true,
    discord_username: 'rider#1',
    discord_verified: true,
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
