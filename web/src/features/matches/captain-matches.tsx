// The signed-in captain's matches: what is next, and what each one waits for from them.
import type { ReactNode } from 'react'
import { Link } from '@/lib/router'
import { CalendarLink } from '@/components/calendar-link'
import { useSession } from '@/lib/auth'
import { useLeagueTeams, useTeamMatches } from './api/league'
import { StatusBadge } from './components/status-badge'
import { captainedTeam, matchActions, matchTime, roundTitle, splitUpcoming, teamName } from './lib/match-model'
import type { Match } from './types'

/** What the match waits for from this side's captain, in a few words. */
export function nextStep(match: Match, side: string): string {
  const can = matchActions(match, side, false)
  if (can.answer) return 'Confirm or dispute the report'
  if (can.accept && !match.scheduled_at) return 'Answer the proposed times'
  if (can.checkIn) return 'Check in now'
  if (match.status === 'reported') return 'Waiting for the other captain'
  if (match.status === 'disputed') return 'An organiser will rule'
  if (can.setTime && !match.scheduled_at) return 'Set the match time'
  if (can.postRoom && !match.room_set && !match.room) return 'Post the room'
  if (can.report) return 'Pick the lineup, play, report'
  if (!match.team1 || !match.team2) return 'Waits for an earlier match'
  return ''
}

/**
 * The next `limit` matches of the team the signed-in account captains, with what each waits for;
 * `frame` holds the block's place while the teams and the matches are read.
 */
export function CaptainMatches({ tournament, limit = 6, frame = null }: { tournament: string; limit?: number; frame?: ReactNode }) {
  const { user, isLoading: sessionLoading } = useSession()
  const teams = useLeagueTeams(user ? tournament : '')
  const team = captainedTeam(teams.data, user?.id)
  const { data, isLoading } = useTeamMatches(tournament, team)
  if (sessionLoading || teams.isLoading || (team && isLoading)) return frame
  if (!team || !data) return null
  const { upcoming, played } = splitUpcoming(data)
  return (
    <section className="captain-matches" aria-label="Your matches" data-team={team}>
      <h2>Your matches · Team {team}</h2>
      {upcoming.length === 0 ? (
        <p className="muted">{played.length ? 'No matches left to play.' : 'No fixtures yet: the organisers generate them after the auction.'}</p>
      ) : (
        <ul className="captain-match-list">
          {upcoming.slice(0, limit).map((m) => {
            const other = m.team1?.id === team ? m.team2 : m.team1
            const step = nextStep(m, team)
            return (
              <li key={m.id}>
                <Link to={`/matches/${m.id}`} className="captain-match" data-match-id={m.id}>
                  <span className="captain-match-what">
                    <strong>v {teamName(other)}</strong>
                    <small className="muted">
                      {roundTitle({ number: m.round_number, stage: m.stage })} · {m.team1?.id === team ? 'home' : 'away'}
                      {m.scheduled_at ? ` · ${matchTime(m.scheduled_at)}` : ''}
                    </small>
                  </span>
                  <StatusBadge match={m} />
                  {step ? <span className="captain-match-step">{step}</span> : null}
                </Link>
              </li>
            )
          })}
        </ul>
      )}
      <CalendarLink tournament={tournament} team={team} />
    </section>
  )
}
