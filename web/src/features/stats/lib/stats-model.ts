import type { CardStats, ExtractedStats, SavedStats, SaveStatsPayload } from '../types'

/** Seed §5: numeric stats are parsed as integers, default 0. */
export function toInt(v: unknown): number {
  const n = Number.parseInt(String(v ?? '').replace(/[^\d-]/g, ''), 10)
  return Number.isFinite(n) ? n : 0
}

export function toKd(v: unknown): number {
  const n = Number.parseFloat(String(v ?? ''))
  return Number.isFinite(n) ? n : 0
}

/** Seed §3: category is random 1 to 4. */
export function randomCategory(random: () => number = Math.random): number {
  return 1 + Math.min(3, Math.floor(random() * 4))
}

export function toSavePayload(s: ExtractedStats, category: number): SaveStatsPayload {
  const level = toInt(s.level)
  const games = toInt(s.total_games)
  const kd = toKd(s.kd_ratio)
  const name = s.discord_username?.trim() || 'Player'
  return {
    sk_id: s.sk_id?.trim() || 'N/A',
    level,
    kills: toInt(s.kills),
    deaths: toInt(s.deaths),
    games_played: games,
    kd,
    cart_image: s.cart_image ?? null,
    description: `${name}: level ${level}, K/D ${kd.toFixed(2)} over ${games} games`,
    category,
    preferred_role: 'Player',
  }
}

export function cardFromExtracted(s: ExtractedStats, category: number | null): CardStats {
  return {
    name: s.discord_username?.trim() || 'Player',
    kd: toKd(s.kd_ratio).toFixed(2),
    games: toInt(s.total_games),
    level: toInt(s.level),
    category,
    kills: toInt(s.kills),
    deaths: toInt(s.deaths),
    skid: s.sk_id?.trim() || 'N/A',
    cartImage: s.cart_image ?? null,
  }
}

export function cardFromSaved(s: SavedStats, fallbackName: string): CardStats {
  const name = [s.discord_username, s.player_name, s.name].find((v) => typeof v === 'string' && v.trim())
  const cat = toInt(s.category)
  return {
    name: (name as string | undefined)?.trim() || fallbackName || 'Player',
    kd: toKd(s.kd ?? s.kd_ratio).toFixed(2),
    games: toInt(s.games_played ?? s.total_games),
    level: toInt(s.level),
    category: cat >= 1 ? cat : null,
    kills: toInt(s.kills),
    deaths: toInt(s.deaths),
    skid: (typeof s.sk_id === 'string' && s.sk_id.trim()) || 'N/A',
    cartImage: typeof s.cart_image === 'string' && s.cart_image ? s.cart_image : null,
  }
}

export const STAGES: { key: Exclude<import('../types').ProgressStage, 'failed'>; label: string }[] = [
  { key: 'received', label: 'Screenshot received' },
  { key: 'reading', label: 'Reading the screenshot' },
  { key: 'extracting', label: 'Extracting your stats' },
  { key: 'rendering', label: 'Rendering your kart' },
  { key: 'done', label: 'Done' },
]
