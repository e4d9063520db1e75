import { describe, expect, it } from 'vitest'
import { makeMatch } from '@/testing/league-fixtures'
import type { LeagueTeam, Match } from '../types'
import {
  buildResult,
  captainedTeam,
  initialRows,
  memberNames,
  matchActions,
  matchCheckin,
  needsRuling,
  noShows,
  roundTitle,
  sideOf,
  splitUpcoming,
  teamName,
  fromLocalInput,
  isOverdue,
  matchTime,
  timeLeft,
  toLocalInput,
  stillToPlay,
  untilMatch,
  type ReportRow,
  shownStatus,
  teamTotals,
} from './match-model'

const match = (over: Partial<Match> = {}) => makeMatch({ id: 1, next_match: 5, ...over })

const row = (userId: number, team: string, over: Partial<ReportRow> = {}): ReportRow => ({
  userId,
  team,
  played: true,
  kills: '10',
  deaths: '2',
  placement: '',
  ...over,
})

describe('roundTitle', () => {
  it('names league rounds by number, knockout rounds by stage, and a bracket’s rounds by it', () => {
    expect(roundTitle({ number: 3, stage: 'league' })).toBe('Round 3')
    expect(roundTitle({ number: 1, stage: 'quarter_final' })).toBe('Quarter-finals')
    expect(roundTitle({ number: 2, stage: 'semi_final' })).toBe('Semi-finals')
    expect(roundTitle({ number: 3, stage: 'final' })).toBe('Final')
    expect(roundTitle({ number: 1, stage: 'round_of_16' })).toBe('Round of 16')
    expect(roundTitle({ number: 2, stage: 'winners' })).toBe('Winners round 2')
    expect(roundTitle({ number: 4, stage: 'losers' })).toBe('Losers round 4')
    expect(roundTitle({ number: 1, stage: 'grand_final' })).toBe('Grand final')
    expect(roundTitle({ number: 2, stage: 'grand_final' })).toBe('Grand final reset')
    expect(roundTitle({ number: 3, stage: 'swiss' })).toBe('Swiss round 3')
  })
})

describe('who may do what', () => {
  const teams: LeagueTeam[] = [
    { id: 'A', name: 'Team A', captain: { user_id: 11, name: 'Ace', image: null }, players: [] },
    { id: 'H', name: 'Thunder', captain: { user_id: 18, name: 'Hex', image: null }, players: [] },
  ]

  it('finds the team a user captains, by id of either type', () => {
    expect(captainedTeam(teams, 18)).toBe('H')
    expect(captainedTeam(teams, '11')).toBe('A')
    expect(captainedTeam(teams, 99)).toBeNull()
    expect(captainedTeam(undefined, 1)).toBeNull()
  })

  it('gives the home captain the room, both captains the lineup, report and forfeit', () => {
    expect(matchActions(match(), 'A', false)).toMatchObject({ postRoom: true, lineup: true, report: true, forfeit: true, answer: false })
    expect(matchActions(match(), 'H', false)).toMatchObject({ postRoom: false, lineup: true, report: true })
    expect(matchActions(match(), null, false)).toMatchObject({ postRoom: false, report: false, resolve: false })
    expect(sideOf(match(), 'C')).toBeNull()
  })

  it('lets only the side that did not report answer a report', () => {
    const reported = match({ status: 'reported', reported_by: 'A' })
    expect(matchActions(reported, 'A', false).answer).toBe(false)
    expect(matchActions(reported, 'H', false).answer).toBe(true)
    expect(matchActions(reported, 'H', false).report).toBe(false)
  })

  it('offers nothing on a match that waits for an earlier winner, but organisers rule on played ones', () => {
    expect(matchActions(match({ team2: null }), 'A', false).report).toBe(false)
    expect(matchActions(match({ team2: null }), null, true).resolve).toBe(false)
  })

  it('offers nothing once the season is completed: its results are final', () => {
    const over = match({ season_status: 'completed', status: 'completed' })
    expect(Object.values(matchActions(over, 'A', true)).some(Boolean)).toBe(false)
    expect(Object.values(matchActions(match({ season_status: 'completed' }), 'A', false)).some(Boolean)).toBe(false)
    expect(matchActions(match({ status: 'completed', winner: 'A' }), null, true).resolve).toBe(true)
    expect(matchActions(match({ status: 'cancelled' }), null, true).resolve).toBe(false)
  })
})

describe('buildResult', () => {
  it('turns ticked rows into the server shape, blanks as 0', () => {
    const got = buildResult('A', [row(1, 'A', { placement: '1' }), row(2, 'A', { played: false }), row(8, 'H', { kills: '', deaths: '4' })])
    expect(got).toEqual({
      result: {
        winner: 'A',
        players: [
          { userId: 1, kills: 10, deaths: 2, placement: 1 },
          { userId: 8, kills: 0, deaths: 4, placement: 0 },
        ],
      },
    })
  })

  it('refuses what the server would refuse, in words', () => {
    expect(buildResult('', [row(1, 'A')])).toEqual({ error: 'Choose the winning team.' })
    expect(buildResult('A', [row(1, 'A', { played: false })])).toHaveProperty('error')
    expect(buildResult('A', [row(1, 'A', { kills: '-1' })])).toEqual({ error: 'Kills and deaths are whole numbers.' })
    expect(buildResult('A', [row(1, 'A', { kills: '2.5' })])).toEqual({ error: 'Kills and deaths are whole numbers.' })
    expect(buildResult('A', [row(1, 'A', { placement: '9' })])).toEqual({ error: 'A placement is from 1 to 8.' })
    expect(buildResult('A', [row(1, 'A', { placement: '2' }), row(8, 'H', { placement: '2' })])).toEqual({
      error: 'Placement 2 is given twice.',
    })
    const five = [1, 2, 3, 4, 5].map((id) => row(id, 'A'))
    expect(buildResult('A', five)).toEqual({ error: 'At most 4 players a side.' })
  })
})

describe('initialRows', () => {
  it('offers the lineup when picked, else every member, unticked', () => {
    const rows = initialRows(match({ lineups: { A: [{ user_id: 12, name: 'Bo' }] } }))
    expect(rows.map((r) => [r.userId, r.team, r.played])).toEqual([
      [12, 'A', true],
      [18, 'H', false],
    ])
  })

  it('fills a correction from the result it corrects', () => {
    const m = match({
      status: 'completed',
      winner: 'H',
      report: { winner: 'H', players: [{ user_id: 18, team: 'H', kills: 7, deaths: 1, placement: 1 }] },
    })
    const hex = initialRows(m).find((r) => r.userId === 18)
    expect(hex).toMatchObject({ played: true, kills: '7', deaths: '1', placement: '1' })
    expect(initialRows(m).find((r) => r.userId === 11)?.played).toBe(false)
  })
})

describe('lists and words', () => {
  it('queues disputes before unconfirmed reports and leaves the rest out', () => {
    const q = needsRuling([
      match({ id: 3, status: 'reported' }),
      match({ id: 4, status: 'completed' }),
      match({ id: 5, status: 'disputed' }),
      match({ id: 2, status: 'reported' }),
    ])
    expect(q.map((m) => m.id)).toEqual([5, 2, 3])
  })

  it('splits upcoming from played', () => {
    const { upcoming, played } = splitUpcoming([match({ id: 1, status: 'live' }), match({ id: 2, status: 'completed' })])
    expect(upcoming.map((m) => m.id)).toEqual([1])
    expect(played.map((m) => m.id)).toEqual([2])
  })

  it('says the time left to a deadline', () => {
    const now = Date.parse('2026-11-23T10:00:00Z')
    expect(timeLeft('2026-11-24T10:00:00Z', now)).toBe('in 24 h')
    expect(timeLeft('2026-11-23T11:30:00Z', now)).toBe('in 1 h 30 min')
    expect(timeLeft('2026-11-23T10:04:40Z', now)).toBe('in 5 min')
    expect(timeLeft('2026-11-24T10:00:50Z', now)).toBe('in 24 h 1 min')
    expect(timeLeft('2026-11-23T10:00:10Z', now)).toBe('in 1 min')
    expect(timeLeft('2026-11-23T09:00:00Z', now)).toBe('now')
    expect(timeLeft(null, now)).toBe('')
  })

  it('knows every player of the match by id', () => {
    expect(memberNames(match()).get(18)).toBe('Hex')
  })

  it('names a team once', () => {
    expect(teamName({ id: 'A', name: 'Team A' })).toBe('Team A')
    expect(teamName({ id: 'H', name: 'Thunder' })).toBe('Team H · Thunder')
    expect(teamName(null)).toBe('To be decided')
  })
})

describe('match times', () => {
  it('shows the day and the time, in the zone asked for', () => {
    expect(matchTime('2026-11-28T19:30:00Z', 'UTC')).toBe('Sat 28 Nov, 19:30 UTC')
    expect(matchTime('2026-11-28T19:30:00Z', 'Asia/Kolkata')).toBe('Sun 29 Nov, 01:00 GMT+5:30')
    expect(matchTime(null)).toBe('')
    expect(matchTime('not a time')).toBe('')
  })
  it('says how far off the match is', () => {
    const now = Date.parse('2026-11-24T18:00:00Z')
    expect(untilMatch('2026-11-28T19:30:00Z', now)).toBe('in 4 days')
    expect(untilMatch('2026-11-25T20:00:00Z', now)).toBe('in 26 h')
    expect(untilMatch('2026-11-24T18:25:00Z', now)).toBe('in 25 min')
    expect(untilMatch('2026-11-24T17:50:00Z', now)).toBe('started 10 min ago')
    expect(untilMatch('2026-11-24T18:00:20Z', now - 30_000)).toBe('in 1 min')
    expect(untilMatch('2026-11-24T12:00:00Z', now)).toBe('started 6 h ago')
    expect(untilMatch(null, now)).toBe('')
  })
  it('turns a datetime-local value into UTC and back', () => {
    const iso = fromLocalInput('2026-11-28T19:30')
    expect(iso).not.toBeNull()
    expect(toLocalInput(iso)).toBe('2026-11-28T19:30')
    expect(new Date(iso!).getTime()).toBe(new Date(2026, 10, 28, 19, 30).getTime())
    expect(fromLocalInput('')).toBeNull()
    expect(fromLocalInput('28/11/2026 19:30')).toBeNull()
    expect(toLocalInput(null)).toBe('')
  })
  it('is set by the home captain or an organiser while the match is open', () => {
    const m = match({ status: 'scheduled' })
    const home = m.team1!.id
    const away = m.team2!.id
    expect(matchActions(m, home, false).setTime).toBe(true)
    expect(matchActions(m, away, false).setTime).toBe(false)
    expect(matchActions(m, null, false).setTime).toBe(false)
    expect(matchActions(m, null, true).setTime).toBe(true)
    expect(matchActions(match({ status: 'reported' }), home, false).setTime).toBe(false)
    expect(matchActions(match({ status: 'completed' }), null, true).setTime).toBe(false)
  })
  it('is proposed by the home captain first, accepted or countered by the other side', () => {
    const m = match({ status: 'scheduled' })
    const home = m.team1!.id
    const away = m.team2!.id
    expect(matchActions(m, home, false).propose).toBe(true)
    expect(matchActions(m, away, false).propose).toBe(false)
    expect(matchActions(m, away, false).accept).toBe(false)
    const proposed = match({ status: 'scheduled', proposal: { by: home, times: ['2026-11-28T19:30:00Z'] } })
    expect(matchActions(proposed, away, false).accept).toBe(true)
    expect(matchActions(proposed, away, false).propose).toBe(true)
    expect(matchActions(proposed, home, false).accept).toBe(false)
    expect(matchActions(proposed, null, true).accept).toBe(false)
  })
})

describe('overdue matches', () => {
  const now = Date.parse('2026-11-24T18:00:00Z')
  const due = (iso: string | null, over: Partial<Match> = {}) => match({ status: 'live', scheduled_at: iso, ...over })
  it('is a match still to play two hours past its time', () => {
    expect(isOverdue(due('2026-11-24T15:59:00Z'), now)).toBe(true)
    expect(isOverdue(due('2026-11-24T16:01:00Z'), now)).toBe(false)
    expect(isOverdue(due(null), now)).toBe(false)
    expect(isOverdue(due('2026-11-24T10:00:00Z', { status: 'reported' }), now)).toBe(false)
  })
  it('comes first in what is left to play, then the timed matches soonest first', () => {
    const list = [
      due(null, { id: 1 }),
      due('2026-11-26T18:00:00Z', { id: 2 }),
      due('2026-11-25T18:00:00Z', { id: 3 }),
      due('2026-11-24T10:00:00Z', { id: 4 }),
      due('2026-11-24T10:00:00Z', { id: 5, status: 'completed' }),
    ]
    expect(stillToPlay(list, now).map((m) => m.id)).toEqual([4, 3, 2, 1])
  })
})

describe('a match’s check-in', () => {
  const at = Date.parse('2026-01-10T19:00:00Z')
  const m = (over: Partial<Match> = {}) =>
    makeMatch({ scheduled_at: new Date(at).toISOString(), checkin_opens_at: new Date(at - 3_600_000).toISOString(), ...over })

  it('opens an hour before the time and closes at it', () => {
    expect(matchCheckin(m({ scheduled_at: null, checkin_opens_at: null }), at)).toBe('no-time')
    expect(matchCheckin(m(), at - 61 * 60_000)).toBe('early')
    expect(matchCheckin(m(), at - 30 * 60_000)).toBe('open')
    expect(matchCheckin(m(), at)).toBe('closed')
  })

  it('offers a side’s captain the check-in once, in the window', () => {
    expect(matchActions(m(), 'A', false, at - 30 * 60_000).checkIn).toBe(true)
    expect(matchActions(m({ checked_in: { A: 'x' } }), 'A', false, at - 30 * 60_000).checkIn).toBe(false)
    expect(matchActions(m(), 'A', false, at - 2 * 3_600_000).checkIn).toBe(false)
    expect(matchActions(m(), null, true, at - 30 * 60_000).checkIn).toBe(false)
  })

  it('names the sides that did not check in, once the time has come, for a match still to play', () => {
    expect(noShows(m({ checked_in: { A: 'x' } }), at - 60_000)).toEqual([])
    expect(noShows(m({ checked_in: { A: 'x' } }), at + 60_000)).toEqual(['H'])
    expect(noShows(m(), at + 60_000)).toEqual(['A', 'H'])
    expect(noShows(m({ status: 'reported' }), at + 60_000)).toEqual([])
  })

  it('puts a match with a no-show after the overdue ones and before the rest', () => {
    const overdue = m({ id: 1, scheduled_at: new Date(at - 3 * 3_600_000).toISOString() })
    const noShow = m({ id: 2, checked_in: { A: 'x' } })
    const later = m({ id: 3, scheduled_at: new Date(at + 3_600_000).toISOString() })
    expect(stillToPlay([later, noShow, overdue], at + 60_000).map((x) => x.id)).toEqual([1, 2, 3])
  })
})

describe('shownStatus: "Live" from the server’s live_from, not the room', () => {
  const at = Date.parse('2026-11-28T19:00:00Z')
  const timed = (over: Partial<Match>) => makeMatch({ scheduled_at: '2026-11-28T19:00:00Z', live_from: '2026-11-28T19:00:00Z', ...over })
  it('a room posted 29 minutes early is still scheduled', () => {
    expect(shownStatus(timed({ status: 'live', room: 'ABCD' }), at - 29 * 60_000)).toBe('scheduled')
  })
  it('is live from live_from, room or not, as the clock passes', () => {
    expect(shownStatus(timed({ status: 'live' }), at)).toBe('live')
    expect(shownStatus(timed({ status: 'scheduled' }), at + 60_000)).toBe('live')
  })
  it('both check-ins before the time: the server’s live_from is the second one', () => {
    expect(shownStatus(timed({ live_from: '2026-11-28T18:20:00Z' }), at - 39 * 60_000)).toBe('live')
  })
  it('a match not yet live (no time, not both in) waits', () => {
    expect(shownStatus(makeMatch({ status: 'live', live_from: null }), at)).toBe('scheduled')
  })
  it('a played match is what it is', () => {
    expect(shownStatus(timed({ status: 'completed' }), at - 60_000)).toBe('completed')
  })
})

describe('teamTotals: each side’s kills and deaths', () => {
  const line = (team: string, kills: number, deaths: number, user_id: number) => ({ user_id, team, kills, deaths, placement: 1 })
  it('sums the report by team', () => {
    const m = makeMatch({ report: { winner: 'A', players: [line('A', 5, 2, 11), line('A', 7, 1, 12), line('H', 3, 9, 21)] } })
    expect(teamTotals(m)).toEqual({ A: { kills: 12, deaths: 3 }, H: { kills: 3, deaths: 9 } })
  })
  it('has none before a report, nor for a forfeit', () => {
    expect(teamTotals(makeMatch())).toBeNull()
    expect(teamTotals(makeMatch({ forfeit: true, report: { winner: 'A', players: [] } }))).toBeNull()
  })
})
