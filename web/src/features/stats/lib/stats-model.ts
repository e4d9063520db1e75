import type { CardStats, ExtractedStats, ReviewField, ReviewValues, SavedStats, SaveStatsPayload } from '../types'

/** Numeric stats are parsed as integers, default 0. */
export function toInt(v: unknown): number {
  const n = Number.parseInt(String(v ?? '').replace(/[^\d-]/g, ''), 10)
  return Number.isFinite(n) ? n : 0
}

export function toKd(v: unknown): number {
  const n = Number.parseFloat(String(v ?? ''))
  return Number.isFinite(n) ? n : 0
}

/** A new card's category is random, 1 to 4. */
export function randomCategory(random: () => number = Math.random): number {
  return 1 + Math.min(3, Math.floor(random() * 4))
}

export function toSavePayload(s: ExtractedStats, category: number): SaveStatsPayload {
  const level = toInt(s.level)
  const games = toInt(s.total_games)
  const kd = toKd(s.kd_ratio)
  const name = s.discord_username?.trim() || 'Player'
  return {
    ...(s.discord_username?.trim() && s.discord_username.trim() !== 'Player' ? { player_name: s.discord_username.trim() } : {}),
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

/** The in-game name the screen showed, or '' (the Stats tab shows none). */
export function screenName(s: ExtractedStats): string {
  const name = s.discord_username?.trim() ?? ''
  return (s.missing ?? []).includes('name') || name === 'Player' ? '' : name
}

/** The card of an answer; its name falls back to the player's Discord username. */
export function cardFromExtracted(s: ExtractedStats, category: number | null, fallbackName = ''): CardStats {
  return {
    name: screenName(s) || fallbackName.trim() || 'Player',
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

/** The server's answer when its reader could not read a screenshot at all (a 422): the player
 *  types their stats instead (internal/core MsgUnreadable). */
export const READER_REFUSED = 'We could not read this screenshot — please enter your stats'

/** A refused screenshot as an answer with nothing read: every figure missing, for the player to
 *  type in the review form, which shows why. */
export function refusedAnswer(message: string): ExtractedStats {
  return {
    discord_username: 'Player',
    level: '1',
    kills: '0',
    deaths: '0',
    total_games: '0',
    sk_id: 'N/A',
    kd_ratio: '0.00',
    cart_image: null,
    missing: [...REVIEW_FIELDS.map((f) => f.key), 'kd'],
    refused: message,
  }
}

/** The review form's fields, in order, with the answer's name for each. */
export const REVIEW_FIELDS: { key: ReviewField; label: string; numeric: boolean }[] = [
  { key: 'name', label: 'Name', numeric: false },
  { key: 'level', label: 'Level', numeric: true },
  { key: 'kills', label: 'Kills', numeric: true },
  { key: 'deaths', label: 'Deaths', numeric: true },
  { key: 'games', label: 'Games played', numeric: true },
  { key: 'sk_id', label: 'SK id', numeric: false },
]

/** Whether an upload's answer needs the player's eye before it is kept: a doubtful figure the
 *  player keeps (not wins or bots' kills, which are only shown), a missing field, or (signed in) a
 *  reading the server did not save. */
export function needsReview(s: ExtractedStats, saved?: boolean): boolean {
  const kept = Object.keys(s.doubtful ?? {}).filter((f) => f !== 'wins' && f !== 'bots_kills')
  return kept.length > 0 || (s.missing ?? []).length > 0 || saved === false
}

/** The form's first values: what was read, empty where the screen showed nothing; the name falls
 *  back to the player's Discord username when the screen has none. */
export function reviewValues(s: ExtractedStats, fallbackName: string): ReviewValues {
  const missing = new Set(s.missing ?? [])
  const read = (k: ReviewField, v: string) => (missing.has(k) ? '' : v)
  return {
    name: screenName(s) || fallbackName,
    level: read('level', s.level),
    kills: read('kills', s.kills),
    deaths: read('deaths', s.deaths),
    games: read('games', s.total_games),
    sk_id: read('sk_id', s.sk_id === 'N/A' ? '' : s.sk_id),
  }
}

/** Doubts per review field: a K/D that disagrees falls on kills and deaths, the figures the player
 *  types; a K/D worked out from them is the K/D line's own (kdProposal). */
export function reviewDoubts(s: ExtractedStats): Partial<Record<ReviewField, string>> {
  const d = s.doubtful ?? {}
  const out: Partial<Record<ReviewField, string>> = {}
  for (const f of REVIEW_FIELDS) if (d[f.key]) out[f.key] = d[f.key]
  if (d.kd && !kdProposal(s)) {
    out.kills ??= d.kd
    out.deaths ??= d.kd
  }
  return out
}

/** Why the K/D was worked out from kills and deaths rather than read, or '' when it was read. */
export function kdProposal(s: ExtractedStats): string {
  return (s.proposed ?? []).includes('kd') ? (s.doubtful?.kd ?? '') : ''
}

/** A doubt as the review shows it: the reason, asking the player to check it once. */
export function doubtText(why: string): string {
  return /please check$/i.test(why) ? why.charAt(0).toUpperCase() + why.slice(1) : `Please check: ${why}`
}

/** K/D of kills and deaths as the game shows it; with no deaths, the kills. */
export function kdOf(kills: number, deaths: number): string {
  return (deaths > 0 ? Math.round((kills / deaths) * 100) / 100 : kills).toFixed(2)
}

/** A saved record as a reading to review again: the figures it lacks (`missing`, as the review form
 *  names them) empty to type, the rest as saved, the name falling back to the Discord username. */
export function reviewOfSaved(s: SavedStats, missing: ReviewField[], fallbackName: string): ExtractedStats {
  const card = cardFromSaved(s, fallbackName)
  return {
    discord_username: card.name,
    level: String(card.level),
    kills: String(card.kills),
    deaths: String(card.deaths),
    total_games: String(card.games),
    sk_id: card.skid,
    kd_ratio: card.kd,
    cart_image: card.cartImage,
    missing,
  }
}

/** The approved figures as an answer of the reader: what the card shows and the save sends. */
export function applyReview(s: ExtractedStats, v: ReviewValues): ExtractedStats {
  const kills = toInt(v.kills)
  const deaths = toInt(v.deaths)
  return {
    ...s,
    discord_username: v.name.trim() || 'Player',
    level: String(toInt(v.level) || 1),
    kills: String(kills),
    deaths: String(deaths),
    total_games: String(toInt(v.games)),
    sk_id: v.sk_id.trim() || 'N/A',
    kd_ratio: kdOf(kills, deaths),
    doubtful: undefined,
    missing: undefined,
  }
}
