import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react'
import { Link, useLocation, useNavigate, useSearchParams } from '@/lib/router'
import { plural } from '@/lib/format'
import { useTournamentName } from '@/config/app-config'
import { useSession } from '@/lib/auth'
import { CaptainMatchesFrame } from '@/features/matches/components/captain-matches-frame'
import { SeasonPicker } from '@/features/matches/components/season-picker'
import { useRegistrations, useTournamentInfo } from '@/features/tournament/api/registrations'
import { CategoryPanel } from '@/features/tournament/components/category-panel'
import { DescriptionPanel } from '@/features/tournament/components/description-panel'
import { RegisterButton } from '@/features/tournament/components/register-button'
import { TournamentTabs } from '@/features/tournament/components/tournament-tabs'
import { isTabKey, type TabKey } from '@/features/tournament/lib/tabs'
import { Spinner } from '@/components/ui/spinner'
import { wantsOwnCard } from '../links'
import { can, staffRole } from '@/lib/authorization'
import { offersFor, viewerOf } from '@/lib/phase'
import { PageHead } from '@/components/layout/page-head'
import { phaseName, seasonName } from '@/lib/season-name'
import { lastSession, rememberSession } from '@/lib/role-hint'
import { retryableLazy } from '../lazy-page'

// The description tab shows first; every other tab's code loads when it is opened, and so do the
// parts only some visitors see: a captain's matches, the check-in (while it has a window).
const CaptainMatches = retryableLazy(() => import('@/features/matches/captain-matches').then((m) => ({ default: m.CaptainMatches })))
const CheckinBanner = retryableLazy(() => import('@/features/tournament/components/checkin').then((m) => ({ default: m.CheckinBanner })))
const CheckinButton = retryableLazy(() => import('@/features/tournament/components/checkin').then((m) => ({ default: m.CheckinButton })))
const CaptainModal = retryableLazy(() => import('@/features/auth/components/captain-modal').then((m) => ({ default: m.CaptainModal })))
const BracketView = retryableLazy(() => import('@/features/matches/components/bracket-view').then((m) => ({ default: m.BracketView })))
const PointsTable = retryableLazy(() => import('@/features/matches/components/standings').then((m) => ({ default: m.PointsTable })))
const RedCap = retryableLazy(() => import('@/features/matches/components/standings').then((m) => ({ default: m.RedCap })))
const PrizesPanel = retryableLazy(() => import('@/features/prizes/components/prizes-panel').then((m) => ({ default: m.PrizesPanel })))
const TeamsGrid = retryableLazy(() => import('@/features/teams/components/teams-grid').then((m) => ({ default: m.TeamsGrid })))
const RegisteredPlayers = retryableLazy(() =>
  import('@/features/tournament/components/registered-players').then((m) => ({ default: m.RegisteredPlayers })),
)

function panel(node: ReactNode) {
  return <Suspense fallback={<Spinner label="Loading" />}>{node}</Suspense>
}

export default function TournamentRoute() {
  const current = useTournamentName()
  const [params, setParams] = useSearchParams()
  // ?season= shows a past (or another) tournament; without it, the site's current one.
  const picked = params.get('season')
  const tournament = picked || current
  const info = useTournamentInfo(tournament)
  const name = seasonName(info.data, tournament)
  const registrations = useRegistrations(tournament).data
  const count = registrations?.count
  // The check-in banner's code loads only once the season has a check-in window.
  const checkin = !!(registrations?.checkin?.deadline || registrations?.checkin?.closed_at)
  const { user, isLoading: sessionLoading } = useSession()
  const location = useLocation()
  const navigate = useNavigate()
  // The URL is the one source of the tab, so a link to ?tab=reg works from this page too.
  const fromUrl = params.get('tab')
  const tab: TabKey = isTabKey(fromUrl) ? fromUrl : 'description'
  const focusOwn = wantsOwnCard(location.state)
  const [captainOpen, setCaptainOpen] = useState(false)
  // While a stored session is read, what it was last time lays the page out as it will be: the
  // register or check-in button, the captain's or organiser's link, a captain's block.
  const hint = sessionLoading ? lastSession() : null
  const captain = user ? staffRole(user) === 'captain' : hint?.role === 'captain'
  const registered = user ? user.tournament_registered : !!hint?.registered
  const captainFrame = captain ? <CaptainMatchesFrame /> : null
  useEffect(() => {
    if (!sessionLoading) rememberSession(user)
  }, [user, sessionLoading])

  // Once the card is in view, drop the request so going back here does not scroll again.
  const { pathname, search } = location
  const ownCardShown = useCallback(
    () => navigate({ pathname, search }, { replace: true, state: null }),
    [navigate, pathname, search],
  )

  useEffect(() => {
    document.title = `${name} · Pitlane`
  }, [name])

  function change(key: TabKey, season = picked) {
    const next: Record<string, string> = {}
    if (key !== 'description') next.tab = key
    if (season && season !== current) next.season = season
    setParams(next, { replace: true })
  }

  return (
    <div className="page tournament-page">
      <PageHead
        kicker="Tournament"
        title={name}
        meta={
          <p className="muted page-meta">
            {count !== undefined ? `${plural(count, 'player')} registered` : ''}
            {count !== undefined && info.data ? ' · ' : ''}
            {phaseName(info.data?.status)}
          </p>
        }
      >
        <div className="page-actions">
          <SeasonPicker value={tournament} onChange={(name) => change(tab, name)} />
          {!registered ? (
            <RegisterButton tournament={tournament} />
          ) : (
            <Suspense fallback={null}>
              <CheckinButton tournament={tournament} />
            </Suspense>
          )}
          {info.data?.status === 'auction' ? (
            <Link to="/auction" className="btn btn-ghost">
              <span className="live-dot" aria-hidden="true" /> Watch the auction
            </Link>
          ) : null}
          {staffRole(user) === 'captain' ? (
            <Link to="/captain" className="btn btn-ghost">
              My captain view
            </Link>
          ) : can(user, 'organise', tournament) ? (
            <Link to="/admin" className="btn btn-ghost">
              Organisers’ page
            </Link>
          ) : sessionLoading ? (
            // The link the session had last time holds its place (unseen); nothing for a player.
            hint && hint.role !== 'user' ? (
              <span className="btn btn-ghost btn-placeholder" aria-hidden="true">
                {hint.role === 'captain' ? 'My captain view' : 'Organisers’ page'}
              </span>
            ) : null
          ) : offersFor(info.data?.status, viewerOf(user, tournament)).captainSignIn ? (
            <button type="button" className="btn btn-ghost" onClick={() => setCaptainOpen(true)}>
              Sign in as Captain
            </button>
          ) : null}
        </div>
      </PageHead>

      <Suspense fallback={null}>{checkin ? <CheckinBanner tournament={tournament} /> : null}</Suspense>
      {/* A captain's block holds its place from the moment the session says captain, so the tabs
          below do not move when the block's code and matches come. */}
      {user || captain ? (
        <Suspense fallback={captainFrame}>
          <CaptainMatches tournament={tournament} limit={2} frame={captainFrame} />
        </Suspense>
      ) : null}

      <TournamentTabs
        active={tab}
        onChange={change}
        renderPanel={(key) => {
          switch (key) {
            case 'description':
              return <DescriptionPanel info={info.data} tournament={tournament} />
            case 'category':
              return <CategoryPanel />
            case 'teams':
              return panel(<TeamsGrid tournament={tournament} />)
            case 'reg':
              return panel(<RegisteredPlayers tournament={tournament} focusOwn={focusOwn} onFocusedOwn={ownCardShown} />)
            case 'bracket':
              return panel(<BracketView tournament={tournament} season={name} />)
            case 'points':
              return panel(<PointsTable tournament={tournament} />)
            case 'redcap':
              return panel(<RedCap tournament={tournament} completed={info.data?.status === 'completed'} />)
            case 'prizes':
              return panel(<PrizesPanel tournament={tournament} />)
          }
        }}
      />
      {captainOpen ? panel(<CaptainModal open onClose={() => setCaptainOpen(false)} />) : null}
    </div>
  )
}
