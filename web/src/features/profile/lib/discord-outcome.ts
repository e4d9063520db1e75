// The outcome of "Link Discord": the server sends the browser back to /?discord=linked|error&message=…;
// the home page keeps it here and opens the profile, which shows it once.
const KEY = 'pitlane.discordOutcome'

export type DiscordOutcome = { kind: 'success' | 'error'; text: string }

/** Reads ?discord=… from a query string: the outcome, or null when the query holds none. */
export function discordOutcomeOf(search: string): DiscordOutcome | null {
  const params = new URLSearchParams(search)
  const outcome = params.get('discord')
  if (outcome !== 'linked' && outcome !== 'error') return null
  const text = params.get('message') || (outcome === 'linked' ? 'Discord account linked and verified!' : 'Discord linking failed.')
  return { kind: outcome === 'linked' ? 'success' : 'error', text: text.slice(0, 300) }
}

export function keepDiscordOutcome(o: DiscordOutcome) {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(o))
  } catch {
    /* storage off: the profile shows the link's state anyway */
  }
}

/** The kept outcome (reading does not spend it: React may render twice). */
export function peekDiscordOutcome(): DiscordOutcome | null {
  try {
    const raw = window.sessionStorage.getItem(KEY)
    const o = raw ? (JSON.parse(raw) as DiscordOutcome) : null
    return o && (o.kind === 'success' || o.kind === 'error') && typeof o.text === 'string' ? o : null
  } catch {
    return null
  }
}

/** Spends the kept outcome once it was shown. */
export function clearDiscordOutcome() {
  try {
    window.sessionStorage.removeItem(KEY)
  } catch {
    /* nothing kept */
  }
}
