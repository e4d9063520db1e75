import { lazy, Suspense, type ComponentType } from 'react'
import { Route, Switch } from '@/lib/router'
import { Spinner } from '@/components/ui/spinner'
import { lazyPage, retryableLazy } from './lazy-page'
import { pages } from './page-chunks'
import { SiteLayout } from './site-layout'

// Every page loads its own chunk when visited (the first bundle is the shell: the header, the
// session, the live client; the footer and the socket follow the first render).
const HomeRoute = lazyPage(pages.home)
const NotFoundRoute = retryableLazy(() => import('./routes/not-found'))
const TournamentRoute = lazyPage(pages.tournament)
const ContactRoute = lazyPage(pages.contact)
const PptRoute = lazyPage(pages.ppt)
const MatchRoute = lazyPage(pages.match)
const AdminMatchesRoute = lazyPage(pages.adminMatches)
const AdminMetricsRoute = lazyPage(pages.adminMetrics)
const AuctionRoute = lazyPage(pages.auction)
const CaptainRoute = lazyPage(pages.captain)
const AdminRoute = lazyPage(pages.admin)
const PlayerRoute = lazyPage(pages.player)
const TeamRoute = lazyPage(pages.team)
const LeagueRoute = lazyPage(pages.league)
const SearchRoute = lazyPage(pages.search)
const StreamsRoute = lazyPage(pages.streams)
const RoomsRoute = lazyPage(pages.rooms)
const NotificationsOffRoute = retryableLazy(() => import('./routes/notifications-off'))
// Stream overlays: no site layout, each overlay its own chunk (app/overlay/routes).
const OverlayRoutes = lazy(() => import('@/app/overlay/routes'))

const pageLoading = (
  <div className="page-loading">
    <Spinner />
  </div>
)

/**
 * The site's pages inside its layout, by their pattern; the first matching route wins. The patterns
 * are the site's pages as its page timings name them (lib/page-patterns.json, kept equal by a test).
 */
export const SITE_PAGES: readonly (readonly [string, ComponentType])[] = [
  ['/', HomeRoute],
  ['/tournament', TournamentRoute],
  ['/contact', ContactRoute],
  ['/matches/:id', MatchRoute],
  ['/players/:id', PlayerRoute],
  ['/tournaments/:name/teams/:team', TeamRoute],
  ['/league', LeagueRoute],
  ['/search', SearchRoute],
  ['/streams', StreamsRoute],
  ['/admin/matches', AdminMatchesRoute],
  ['/admin/metrics', AdminMetricsRoute],
  ['/auction', AuctionRoute],
  ['/captain', CaptainRoute],
  ['/admin', AdminRoute],
  ['/notifications/off', NotificationsOffRoute],
  ['/rooms', RoomsRoute],
  ['/rooms/:id', RoomsRoute],
]

/** The presenter's deck: a page of its own, outside the site's layout. */
export const PPT_PATH = '/ppt'

function SitePages() {
  return (
    <SiteLayout>
      <Switch>
        {SITE_PAGES.map(([path, page]) => (
          <Route key={path} path={path} component={page} />
        ))}
        <Route component={NotFoundRoute} />
      </Switch>
    </SiteLayout>
  )
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/overlay" nest>
        <Suspense fallback={null}>
          <OverlayRoutes />
        </Suspense>
      </Route>
      <Route path={PPT_PATH}>
        <Suspense fallback={pageLoading}>
          <PptRoute />
        </Suspense>
      </Route>
      <Route component={SitePages} />
    </Switch>
  )
}
