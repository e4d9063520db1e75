// Pure rules of the league's pages: labels, who may do what on a match, and the report form's
// rows turned into what the server takes. The server decides; these only choose what to offer.
import { dayTime } from '@/lib/time'
import type { LeagueTeam, Match, MatchStatus, ResultInput, Round } from '../types'
import { captainedBy } from '@/lib/authorization'

export { fromLocalInput, fromNow as untilMatch, timeLeft, toLocalInput } from '@/lib/time'
/** When a match is played, in the viewer's time zone: "Sat 28 Nov, 19:30"; '' when not set. */
export const matchTime = dayTime

export const STATUS_LABEL: Record<MatchStatus, string> = {
  scheduled: 'Scheduled',
  live: 'Live',
  reported: 'Reported',
  completed: 'Completed',
  disputed: 'Disputed',
  cancelled: 'Cancelled',
}

type Timed = Pick<Match, 'status' | 'live_from'>

/**
 * The status the pages show: the server's rule (internal/matches LiveFrom), kept true as the clock
 * passes. An open match is "Live" from its `live_from` (the agreed time, or both check-ins if
 * earlier), not from the home captain's posting of the room; before that it shows as scheduled.
 */
export function shownStatus(m: Timed, now: number = Date.now()): MatchStatus {
  if (m.status !== 'live' && m.status !== 'scheduled') return m.status
  return m.live_from && Date.parse(m.live_from) <= now ? 'live' : 'scheduled'
}

export const FORMATS = [
  { key: 'single_elimination', label: 'Single elimination', hint: 'Seeds 1 v 8, 4 v 5, 2 v 7, 3 v 6; winners advance.' },
  {
    key: 'double_elimination',
    label: 'Double elimination',
    hint: 'A first loss drops a team to the losers bracket, a second is out; the two champions meet in a grand final.',
  },
  {
    key: 'swiss',
    label: 'Swiss',
    hint: 'Rounds paired by score, no rematches; ranked by wins, Buchholz, kill difference; an optional top cut.',
  },
  { key: 'round_robin', label: 'Round robin', hint: 'Every pair once; the top of the Points Table is champion.' },
  {
    key: 'league_then_playoffs',
    label: 'League, then play-offs',
    hint: 'A round robin, then the top four in semi-finals (1 v 4, 2 v 3) and a final.',
  },
] as const

export function formatLabel(format: string | undefined): string {
  return FORMATS.find((f) => f.key === format)?.label ?? (format ? format.replace(/_/g, ' ') : '')
}

/**
 * "Round 2" for a league round, the knockout stage's name ("Semi-finals", "Final", "Round of 16"), or the
 * bracket's round ("Winners round 2", "Losers round 1", "Grand final", "Grand final reset", "Swiss round 3").
 */
export function roundTitle(round: Pick<Round, 'number' | 'stage'>): string {
  switch (round.stage) {
    case 'league':
    case '':
    case undefined:
      return `Round ${round.number}`
    case 'winners':
      return `Winners round ${round.number}`
    case 'losers':
      return `Losers round ${round.number}`
    case 'swiss':
      return `Swiss round ${round.number}`
    case 'grand_final':
      return round.number > 1 ? 'Grand final reset' : 'Grand final'
    case 'final':
      return 'Final'
    case 'semi_final':
      return 'Semi-finals'
    case 'quarter_final':
      return 'Quarter-finals'
  }
  const of = /^round_of_(\d+)$/.exec(round.stage)
  return of ? `Round of ${of[1]}` : round.stage.replace(/_/g, ' ')
}

/** The letter of the team the user captains in this tournament, if any. */
export function captainedTeam(teams: LeagueTeam[] | undefined, userId: number | string | undefined | null): string | null {
  return captainedBy(teams, userId)?.id ?? null
}

/** The side of the match the user captains, if either. */
export function sideOf(match: Match, captainOf: string | null): string | null {
  if (!captainOf) return null
  return match.team1?.id === captainOf || match.team2?.id === captainOf ? captainOf : null
}

export function isOpen(match: Match): boolean {
  return (match.status === 'scheduled' || match.status === 'live') && !!match.team1 && !!match.team2
}

/** Where a match's check-in stands at `now`: no time yet, not open yet, open, or closed (at the time). */
export type MatchCheckin = 'no-time' | 'early' | 'open' | 'closed'

export function matchCheckin(match: Match, now: number = Date.now()): MatchCheckin {
  if (!match.scheduled_at) return 'no-time'
  const at = Date.parse(match.scheduled_at)
  const opens = match.checkin_opens_at ? Date.parse(match.checkin_opens_at) : at - 3_600_000
  if (now < opens) return 'early'
  return now < at ? 'open' : 'closed'
}

/** The sides of an open match that did not check in by its time: an organiser's to forfeit. */
export function noShows(match: Match, now: number = Date.now()): string[] {
  if (!isOpen(match) || matchCheckin(match, now) !== 'closed') return []
  return [match.team1, match.team2].flatMap((t) => (t && !match.checked_in?.[t.id] ? [t.id] : []))
}

/** What the signed-in user may do on the match, as the server's rules allow (nothing once the season is over). */
export function matchActions(match: Match, side: string | null, admin: boolean, now: number = Date.now()) {
  const season = !match.season_status || match.season_status === 'matches'
  if (!season) side = null
  admin = admin && season
  const open = isOpen(match) && season
  const answering = match.status === 'reported' && !!side && match.reported_by !== side
  return {
    /** A side's captain, in the hour before the time, once. */
    checkIn: open && !!side && matchCheckin(match, now) === 'open' && !match.checked_in?.[side],
    postRoom: open && !!side && match.team1?.id === side,
    /** When the match is played: its home captain or an organiser. */
    setTime: open && (admin || (!!side && match.team1?.id === side)),
    /** Propose times: the home captain first, the away captain to counter a standing proposal. */
    propose: open && !!side && (match.team1?.id === side || !!match.proposal),
    /** Accept one of the times the other side proposed. */
    accept: open && !!side && !!match.proposal && match.proposal.by !== side,
    lineup: open && !!side,
    report: open && !!side,
    answer: answering,
    forfeit: open && !!side,
    /** Rule on a dispute or an unanswered report, or correct a completed result. */
    resolve: admin && !!match.team1 && !!match.team2 && match.status !== 'cancelled',
  }
}

/** Who may play for a side: its lineup when picked, else its captain and players. */
export function eligible(match: Match, letter: string) {
  const lineup = match.lineups?.[letter] ?? []
  return lineup.length ? lineup : (match.members?.[letter] ?? [])
}

/** Player names by user id, from both sides' members and lineups (a report carries ids). */
export function memberNames(match: Match): Map<number, string> {
  const all = [...Object.values(match.members ?? {}), ...Object.values(match.lineups ?? {})].flat()
  return new Map(all.map((p) => [p.user_id, p.name]))
}

export type ReportRow = { userId: number; team: string; played: boolean; kills: string; deaths: string; placement: string }

export const KARTS_PER_SIDE = 4
export const MAX_PLACEMENT = 2 * KARTS_PER_SIDE

function whole(v: string): number | null {
  const t = v.trim()
  if (t === '') return 0
  return /^\d+$/.test(t) ? Number(t) : null
}

/** The report form's rows as the server takes them, or the first thing wrong with them. */
export function buildResult(winner: string, rows: ReportRow[]): { result: ResultInput } | { error: string } {
  if (!winner) return { error: 'Choose the winning team.' }
  const played = rows.filter((r) => r.played)
  if (played.length === 0) return { error: 'Tick the players who played and give their kills, deaths and placement.' }
  const perSide = new Map<string, number>()
  const places = new Set<number>()
  const players: ResultInput['players'] = []
  for (const r of played) {
    const kills = whole(r.kills)
    const deaths = whole(r.deaths)
    const placement = whole(r.placement)
    if (kills === null || deaths === null) return { error: 'Kills and deaths are whole numbers.' }
    if (placement === null || placement > MAX_PLACEMENT) return { error: `A placement is from 1 to ${MAX_PLACEMENT}.` }
    if (placement > 0 && places.has(placement)) return { error: `Placement ${placement} is given twice.` }
    if (placement > 0) places.add(placement)
    const n = (perSide.get(r.team) ?? 0) + 1
    if (n > KARTS_PER_SIDE) return { error: `At most ${KARTS_PER_SIDE} players a side.` }
    perSide.set(r.team, n)
    players.push({ userId: r.userId, kills, deaths, placement })
  }
  return { result: { winner, players } }
}

/** How long after its time a match with no report is overdue (the server's OverdueAfter). */
export const OVERDUE_AFTER_MS = 2 * 3_600_000

/** Whether the match is still to play OVERDUE_AFTER_MS past its time. */
export function isOverdue(match: Match, now: number = Date.now()): boolean {
  return isOpen(match) && !!match.scheduled_at && Date.parse(match.scheduled_at) + OVERDUE_AFTER_MS <= now
}

/**
 * The matches still to play as an organiser looks at them: overdue first, then those past their time
 * with a side that did not check in, then the timed ones soonest first, then the rest.
 */
export function stillToPlay(matches: Match[], now: number = Date.now()): Match[] {
  const rank = (m: Match) => (isOverdue(m, now) ? 0 : noShows(m, now).length ? 1 : m.scheduled_at ? 2 : 3)
  const at = (m: Match) => (m.scheduled_at ? Date.parse(m.scheduled_at) : 0)
  return matches.filter(isOpen).sort((a, b) => rank(a) - rank(b) || at(a) - at(b) || a.round_number - b.round_number || a.id - b.id)
}

/** The matches an organiser has to look at: disputes first, then reports not yet confirmed. */
export function needsRuling(matches: Match[]): Match[] {
  const rank = (m: Match) => (m.status === 'disputed' ? 0 : 1)
  return matches.filter((m) => m.status === 'disputed' || m.status === 'reported').sort((a, b) => rank(a) - rank(b) || a.id - b.id)
}

/** The matches still to play for a team, then the last ones played. */
export function splitUpcoming(matches: Match[]) {
  const done = (m: Match) => m.status === 'completed' || m.status === 'cancelled'
  return { upcoming: matches.filter((m) => !done(m)), played: matches.filter(done) }
}

export type TeamTotal = { kills: number; deaths: number }

/** Each side's kills and deaths in the match's report, by team letter; null before a report (or a forfeit's). */
export function teamTotals(match: Pick<Match, 'report' | 'forfeit'>): Record<string, TeamTotal> | null {
  if (!match.report || match.forfeit || match.report.players.length === 0) return null
  const out: Record<string, TeamTotal> = {}
  for (const p of match.report.players) {
    const t = (out[p.team] ??= { kills: 0, deaths: 0 })
    t.kills += p.kills
    t.deaths += p.deaths
  }
  return out
}

export function teamName(t: { id: string; name: string } | null): string {
  if (!t) return 'To be decided'
  const base = `Team ${t.id}`
  const name = t.name?.trim()
  return !name || name.toLowerCase() === base.toLowerCase() ? base : `${base} · ${name}`
}

/**
 * A forfeit in words: "Team C withdrew — walkover to Team D" when the side that lost has withdrawn
 * from the season (`withdrawn`: the bracket's seeds marked so), else "Team C forfeited — walkover to
 * Team D"; '' for a match played.
 */
export function walkoverLine(match: Pick<Match, 'forfeit' | 'winner' | 'team1' | 'team2'>, withdrawn: ReadonlySet<string> = new Set()): string {
  if (!match.forfeit || !match.winner) return ''
  const [winner, loser] = match.team1?.id === match.winner ? [match.team1, match.team2] : [match.team2, match.team1]
  if (!winner || !loser) return ''
  return `${teamName(loser)} ${withdrawn.has(loser.id) ? 'withdrew' : 'forfeited'} — walkover to ${teamName(winner)}`
}

/** The report's rows, first filled from an earlier report (a correction) or blank. */
export function initialRows(match: Match): ReportRow[] {
  const rows: ReportRow[] = []
  const prior = new Map((match.report?.players ?? []).map((p) => [p.user_id, p]))
  for (const t of [match.team1, match.team2]) {
    if (!t) continue
    for (const p of eligible(match, t.id)) {
      const was = prior.get(p.user_id)
      rows.push({
        userId: p.user_id,
        team: t.id,
        played: was ? true : prior.size === 0 && (match.lineups?.[t.id]?.length ?? 0) > 0,
        kills: was ? String(was.kills) : '',
        deaths: was ? String(was.deaths) : '',
        placement: was && was.placement ? String(was.placement) : '',
      })
    }
  }
  return rows
}
