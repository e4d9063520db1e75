// How the pages name a season and its phase: one way everywhere. A season goes by its display name
// (its tournament's short name until an organiser sets one); the short name shows only where two
// seasons would otherwise read alike. A phase is said in a player's words, not the API's key.
import type { Phase } from './phase'

/** What a season is named from: its tournament's name and, once read, its display name. */
export type Named = { name: string; display_name?: string | null }

/** The name the season goes by: its display name, else its tournament's; `fallback` while it is not read yet. */
export function seasonName(s: Named | null | undefined, fallback = ''): string {
  return s?.display_name?.trim() || s?.name || fallback
}

/** Each season's name in a list (by tournament name), the short name added to those whose names read alike. */
export function seasonNames(list: readonly Named[]): Map<string, string> {
  const seen = new Map<string, number>()
  for (const s of list) {
    const key = seasonName(s).toLowerCase()
    seen.set(key, (seen.get(key) ?? 0) + 1)
  }
  return new Map(
    list.map((s) => {
      const name = seasonName(s)
      return [s.name, (seen.get(name.toLowerCase()) ?? 0) > 1 && name !== s.name ? `${name} (${s.name})` : name]
    }),
  )
}

const PHASES: Record<Phase, string> = {
  registration: 'Registration open',
  auction: 'Auction under way',
  matches: 'Matches under way',
  completed: 'Season completed',
}

/** A season's phase in words: "Matches under way" rather than `matches`. */
export function phaseName(phase: Phase | string | null | undefined): string {
  if (!phase) return ''
  return PHASES[phase as Phase] ?? phase
}
