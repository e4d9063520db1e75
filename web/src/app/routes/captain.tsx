// /captain: a captain's own view: the lot with the bid buttons, their purse and roster, their
// substitutes (asked for once the auction is over), their matches, and the captains room. Reached
// through "Sign in as Captain".
import { useEffect, useState } from 'react'
import { Link } from '@/lib/router'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useTournamentName } from '@/config/app-config'
import { useSession } from '@/lib/auth'
import { CaptainModal } from '@/features/auth/components/captain-modal'
import { useAuction } from '@/features/auction/api/auction'
import { BidPanel } from '@/features/auction/components/bid-panel'
import { teamTitle } from '@/features/auction/components/bits'
import { CaptainsRoom } from '@/features/auction/components/captains-room'
import { NominatePanel } from '@/features/auction/components/nominate-panel'
import { CaptainBench } from '@/features/auction/components/substitutes'
import { CaptainMatches } from '@/features/matches/captain-matches'
import { useLeagueTeams, useTeamMatches } from '@/features/matches/api/league'
import { captainedTeam } from '@/features/matches/lib/match-model'
import { Roster, TeamPurse, TeamsBoard } from '@/features/auction/components/teams-board'
import type { LeagueTeam } from '@/features/auction/types'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { LiveLot } from './auction'
import { can, captainedBy } from '@/lib/authorization'
import { offersFor, viewerOf } from '@/lib/phase'
import { phaseName, seasonName } from '@/lib/season-name'
import { PageHead } from '@/components/layout/page-head'
import { useFirstDeferred } from '@/lib/use-first-deferred'

/** The captains' names as the teams write them, by user id: how the captains room names its lines. */
function captainNames(teams: LeagueTeam[]): Map<number, string> {
  return new Map(teams.flatMap((t) => (t.captain ? [[t.captain.user_id, t.captain.name] as const] : [])))
}

export default function CaptainRoute() {
  const tournament = useTournamentName()
  const { user, isLoading } = useSession()
  const auction = useAuction(tournament)
  const info = useTournamentInfo(tournament)
  const name = seasonName(info.data, tournament)
  const [signIn, setSignIn] = useState(false)

  useEffect(() => {
    document.title = `Captain · ${name} · Pitlane`
  }, [name])

  // The team's board renders in the background the first time (it is the page's biggest).
  const view = useFirstDeferred(auction.data)
  const team = captainedBy(view?.teams, user)
  const status = info.data?.status ?? view?.status
  // What the page offers follows the phase: no lot or bids once the auction is over.
  const offers = offersFor(status, team ? 'captain' : viewerOf(user, tournament))

  // The matches block sits above the lot: the page waits for it (and for the phase) rather than
  // pushing the lot and bid panel down when it arrives.
  const matchesPhase = status === 'matches'
  const leagueTeams = useLeagueTeams(user && matchesPhase ? tournament : '')
  const ownMatches = useTeamMatches(tournament, matchesPhase ? captainedTeam(leagueTeams.data, user?.id) : null)
  const matchesPending = matchesPhase && !!user && (leagueTeams.isLoading || ownMatches.isLoading)

  let body
  if (isLoading || auction.isLoading || (auction.data && !view) || info.isLoading || matchesPending) body = <Spinner label="Loading your team" />
  else if (!user)
    body = (
      <EmptyState title="Captains sign in to bid.">
        <button type="button" className="btn btn-primary" onClick={() => setSignIn(true)}>
          Sign in as Captain
        </button>
      </EmptyState>
    )
  else if (!view) body = <EmptyState title="The auction could not be loaded." />
  else if (!team)
    body = (
      <>
        <EmptyState title={can(user, 'organise', tournament) ? 'Organisers run the auction; they do not bid.' : 'This account is not a team captain.'}>
          {can(user, 'organise', tournament) ? (
            <Link to="/admin" className="btn btn-primary">
              Go to the organisers’ page
            </Link>
          ) : (
            <Link to="/auction" className="btn btn-ghost">
              Watch the auction
            </Link>
          )}
        </EmptyState>
        {can(user, 'organise', tournament) ? <CaptainsRoom tournament={tournament} me={user.id} names={captainNames(view.teams)} /> : null}
      </>
    )
  else
    body = (
      <div className="captain-layout">
        <div className="captain-main">
          {status === 'matches' ? <CaptainMatches tournament={tournament} /> : null}
          {offers.lotStage ? <LiveLot tournament={tournament} view={view} status={status} /> : null}
        </div>
        <aside className="captain-side">
          {/* Beside the countdown on a wide screen, right under the lot on a phone. */}
          {offers.nominate ? (
            <NominatePanel tournament={tournament} flow={view.flow} team={team.id} pool={view.pool} lot={view.lot} offset={view.offset} />
          ) : null}
          {offers.bid ? <BidPanel tournament={tournament} lot={view.lot} team={team} teams={view.teams} offset={view.offset} /> : null}
          <section className="own-team" aria-labelledby="own-title" data-team={team.id}>
            <h2 id="own-title">
              <span className="team-chip team-chip-lg">{team.id}</span> {teamTitle(team)}
            </h2>
            <TeamPurse team={team} />
            <Roster team={team} />
          </section>
          {offers.bench ? <CaptainBench tournament={tournament} team={team} /> : null}
          {offers.captainsRoom ? <CaptainsRoom tournament={tournament} me={user.id} names={captainNames(view.teams)} /> : null}
        </aside>
        <section className="captain-others" aria-labelledby="others-title">
          <h2 id="others-title">Every team</h2>
          <TeamsBoard teams={view.teams} leading={view.lot?.high_bid?.team ?? null} own={team.id} compact />
        </section>
      </div>
    )

  return (
    <div className="page captain-page">
      <PageHead
        kicker="Captain view"
        title={team ? `${teamTitle(team)} · ${name}` : `Captain · ${name}`}
        meta={
          <p className="muted page-meta">{status ? <span className="status-pill">{phaseName(status)}</span> : null}</p>
        }
      >
        <div className="page-actions">
          <Link to="/rooms" className="btn btn-ghost">
            Team rooms
          </Link>
          <Link to="/auction" className="btn btn-ghost">
            Big screen
          </Link>
        </div>
      </PageHead>
      {body}
      <CaptainModal open={signIn} onClose={() => setSignIn(false)} />
    </div>
  )
}
