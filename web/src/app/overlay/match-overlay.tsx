// /overlay/match/{id}: the two teams, their kills once reported, and the match's state, as a
// scoreboard across the top of the stream; live over the site's websocket (topic `bracket`).
import { useParams } from '@/lib/router'
import { useLeagueTeams, useMatch } from '@/features/matches/api/league'
import { matchTime, roundTitle, shownStatus, STATUS_LABEL } from '@/features/matches/lib/match-model'
import type { Match, TeamRef } from '@/features/matches/types'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { TeamBadge } from '@/components/ui/team-badge'
import { OverlayFrame, useOverlayOptions } from './components/overlay-frame'
import { sideKills, teamLabel } from './lib/model'
import { CheerBar } from '@/components/cheers/cheer-bar'

type Logos = Record<string, string | undefined>

function Side({ team, kills, won, logos, end }: { team: TeamRef | null; kills: number | null; won: boolean; logos: Logos; end: 'left' | 'right' }) {
  const letter = team?.id ?? '?'
  return (
    <div className={`ov-side is-${end} ${won ? 'is-winner' : ''}`}>
      <TeamBadge letter={letter} logo={team ? logos[team.id] : null} size={84} />
      <p className="ov-side-name">{team ? teamLabel(team, letter) : 'To be decided'}</p>
      <p className="ov-score" data-testid={`overlay-score-${end}`}>
        {kills ?? '–'}
      </p>
    </div>
  )
}

function stateLine(m: Match): string {
  const round = roundTitle({ number: m.round_number, stage: m.stage })
  switch (shownStatus(m)) {
    case 'scheduled':
      return `${round} · ${m.scheduled_at ? matchTime(m.scheduled_at) : 'time to be set'}`
    case 'completed': {
      const winner = m.winner === m.team1?.id ? m.team1 : m.winner === m.team2?.id ? m.team2 : null
      return `${round} · ${winner ? `${teamLabel(winner, winner.id)} win${m.forfeit ? ' by forfeit' : ''}` : 'Completed'}`
    }
    default:
      return `${round} · ${STATUS_LABEL[m.status]}`
  }
}

export default function MatchOverlay() {
  const options = useOverlayOptions()
  const id = Number(useParams().id)
  const { data: match, isError } = useMatch(id)
  const { data: teams } = useLeagueTeams(match?.tournament ?? '')
  const { data: season } = useTournamentInfo(match?.tournament || options.tournament)
  const logos: Logos = Object.fromEntries((teams ?? []).map((t) => [t.id, (t as { logo?: string }).logo]))
  const kills = match ? sideKills(match) : null
  return (
    <OverlayFrame kind="match" options={options}>
      <CheerBar topic="bracket" buttons={false} />
      {match ? (
        <section className={`ov-panel ov-scoreboard is-${shownStatus(match)}`} data-testid="overlay-match" aria-label="Match">
          <Side team={match.team1} kills={kills && match.team1 ? kills[match.team1.id] : null} won={!!match.winner && match.winner === match.team1?.id} logos={logos} end="left" />
          <div className="ov-versus">
            <p className="ov-status" data-testid="overlay-status">
              {shownStatus(match) === 'live' ? <span className="ov-live-dot" aria-hidden="true" /> : null}
              {STATUS_LABEL[shownStatus(match)]}
            </p>
            <p className="ov-vs">vs</p>
          </div>
          <Side team={match.team2} kills={kills && match.team2 ? kills[match.team2.id] : null} won={!!match.winner && match.winner === match.team2?.id} logos={logos} end="right" />
          <p className="ov-state-line">
            {season?.display_name ? `${season.display_name} · ` : ''}
            {stateLine(match)}
          </p>
        </section>
      ) : isError ? (
        <p className="ov-panel ov-idle">No such match</p>
      ) : null}
    </OverlayFrame>
  )
}
