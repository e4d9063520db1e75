import { useCallback, useEffect, useState } from 'react'
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router'
import { plural } from '@/lib/format'
import { useTournamentName } from '@/config/app-config'
import { useSession } from '@/lib/auth'
import { CaptainModal } from '@/features/auth/components/captain-modal'
import { CaptainMatches } from '@/features/matches/captain-matches'
import { BracketView } from '@/features/matches/components/bracket-view'
import { SeasonPicker } from '@/features/matches/components/season-picker'
import { PointsTable, RedCap } from '@/features/matches/components/standings'
import { TeamsGrid } from '@/features/teams/components/teams-grid'
import { useRegistrations, useTournamentInfo } from '@/features/tournament/api/registrations'
import { CategoryPanel } from '@/features/tournament/components/category-panel'
import { CheckinBanner, CheckinButton } from '@/features/tournament/components/checkin'
import { DescriptionPanel } from '@/features/tournament/components/description-panel'
import { RegisterButton } from '@/features/tournament/components/register-button'
import { RegisteredPlayers } from '@/features/tournament/components/registered-players'
import { TournamentTabs } from '@/features/tournament/components/tournament-tabs'
import { isTabKey, type TabKey } from '@/features/tournament/lib/tabs'
import { wantsOwnCard } from '../links'
import { can, staffRole } from '@/lib/authorization'

export default function TournamentRoute() {
  const current = useTournamentName()
  const [params, setParams] = useSearchParams()
  // ?season= shows a past (or another) tournament; without it, the site's current one.
  const picked = params.get('season')
  const tournament = picked || current
  const info = useTournamentInfo(tournament)
  const count = useRegistrations(tournament).data?.count
  const { user } = useSession()
  const location = useLocation()
  const navigate = useNavigate()
  // The URL is the one source of the tab, so a link to ?tab=reg works from this page too.
  const fromUrl = params.get('tab')
  const tab: TabKey = isTabKey(fromUrl) ? fromUrl : 'description'
  const focusOwn = wantsOwnCard(location.state)
  const [captainOpen, setCaptainOpen] = useState(false)

  // Once the card is in view, drop the request so going back here does not scroll again.
  const { pathname, search } = location
  const ownCardShown = useCallback(
    () => navigate({ pathname, search }, { replace: true, state: null, preventScrollReset: true }),
    [navigate, pathname, search],
  )

  useEffect(() => {
    document.title = `Tournament ${tournament} · Pitlane`
  }, [tournament])

  function change(key: TabKey, season = picked) {
    const next: Record<string, string> = {}
    if (key !== 'description') next.tab = key
    if (season && season !== current) next.season = season
    setParams(next, { replace: true, preventScrollReset: true })
  }

  return (
    <div className="page tournament-page">
      <header className="page-head">
        <div>
          <p className="hero-kicker">PPLS-6.0</p>
          <h1>Tournament {tournament}</h1>
          <p className="muted page-meta">
            {count !== undefined ? `${plural(count, 'player')} registered` : ''}
            {count !== undefined && info.data ? ' · ' : ''}
            {info.data ? `status: ${info.data.status}` : ''}
          </p>
        </div>
        <div className="page-actions">
          <SeasonPicker value={tournament} onChange={(name) => change(tab, name)} />
          {!user?.tournament_registered ? <RegisterButton tournament={tournament} /> : <CheckinButton tournament={tournament} />}
          {info.data?.status === 'auction' ? (
            <Link to="/auction" className="btn btn-ghost">
              <span className="live-dot" aria-hidden="true" /> Watch the auction
            </Link>
          ) : null}
          {staffRole(user) === 'captain' ? (
            <Link to="/captain" className="btn btn-ghost">
              My captain view
            </Link>
          ) : can(user, 'organise') ? (
            <Link to="/admin" className="btn btn-ghost">
              Organisers’ page
            </Link>
          ) : (
            <button type="button" className="btn btn-ghost" onClick={() => setCaptainOpen(true)}>
              Sign in as Captain
            </button>
          )}
        </div>
      </header>

      <CheckinBanner tournament={tournament} />
      <CaptainMatches tournament={tournament} />

      <TournamentTabs
        active={tab}
        onChange={change}
        renderPanel={(key) => {
          switch (key) {
            case 'description':
              return <DescriptionPanel info={info.data} count={count} tournament={tournament} />
            case 'category':
              return <CategoryPanel />
            case 'teams':
              return <TeamsGrid tournament={tournament} />
            case 'reg':
              return <RegisteredPlayers tournament={tournament} focusOwn={focusOwn} onFocusedOwn={ownCardShown} />
            case 'bracket':
              return <BracketView tournament={tournament} />
            case 'points':
              return <PointsTable tournament={tournament} />
            case 'redcap':
              return <RedCap tournament={tournament} completed={info.data?.status === 'completed'} />
          }
        }}
      />
      <CaptainModal open={captainOpen} onClose={() => setCaptainOpen(false)} />
    </div>
  )
}
