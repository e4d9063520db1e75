// What the organisers' ways out would do, in words for their confirmations: a reset (how many results it
// archives) and a team's withdrawal (what becomes of its matches). The server decides; these only say it.
import type { Match } from '../types'

/** A match a reset would take a result from: reported, disputed or completed (a forfeit included). */
export const hasResult = (m: Pick<Match, 'status'>) => m.status === 'reported' || m.status === 'disputed' || m.status === 'completed'

/** How many matches have a result a reset would archive. */
export const resultsOf = (matches: Pick<Match, 'status'>[]) => matches.filter(hasResult).length

/** What withdrawing `team` does to its matches, sentence by sentence, for the format the fixtures are in. */
export function withdrawalOutcome(team: string, format: string, matches: Match[]): { forfeits: number; toRule: number[]; lines: string[] } {
  if (matches.length === 0) {
    return { forfeits: 0, toRule: [], lines: [`Team ${team} is left out of the fixtures when they are made.`] }
  }
  const own = matches.filter((m) => m.team1?.id === team || m.team2?.id === team)
  const forfeits = own.filter((m) => (m.status === 'scheduled' || m.status === 'live') && m.team1 && m.team2).length
  const toRule = own.filter((m) => m.status === 'reported' || m.status === 'disputed').map((m) => m.id)
  const later: Record<string, string> = {
    single_elimination: 'its opponent goes on by forfeit',
    double_elimination: 'every later match it would play, in the losers bracket and the grand final too, goes to whoever meets it',
    swiss: 'later Swiss rounds pair it no more (a bye goes among the teams still in)',
    round_robin: 'its remaining league matches go to its opponents; the title goes to the best team still in',
    league_then_playoffs: 'its remaining league matches go to its opponents; the play-offs take the best four still in',
  }
  const lines = [
    forfeits === 0
      ? `No match of team ${team} is ready to forfeit now.`
      : `${forfeits === 1 ? 'Its match' : `Its ${forfeits} matches`} ready to play ${forfeits === 1 ? 'is' : 'are'} forfeited to the opponents now.`,
    `After that, ${later[format] ?? 'each match it would play goes to its opponent by forfeit'}.`,
  ]
  if (toRule.length > 0) {
    lines.push(`${toRule.map((id) => `Match ${id}`).join(', ')} ${toRule.length === 1 ? 'has a report: it waits' : 'have reports: they wait'} for your ruling.`)
  }
  lines.push(`Team ${team} stays in the table marked withdrawn, with what it won, and cannot be champion. This cannot be undone.`)
  return { forfeits, toRule, lines }
}
