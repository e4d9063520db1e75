import { lazy, Suspense } from 'react'
import { Route, Switch } from '@/lib/router'
import { Spinner } from '@/components/ui/spinner'
import { lazyPage } from './lazy-page'
import { pages } from './page-chunks'
import { SiteLayout } from './site-layout'

// Every page loads its own chunk when visited (the first bundle is the shell: the header, the
// session, the live client; the footer and the socket follow the first render).
const HomeRoute = lazyPage(pages.home)
const NotFoundRoute = lazy(() => import('./routes/not-found'))
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
const NotificationsOffRoute = lazy(() => import('./routes/notifications-off'))
// Stream overlays: no site layout, each overlay its own chunk (app/overlay/routes).
const OverlayRoutes = lazy(() => import('@/app/overlay/routes'))

const pageLoading = (
  <div className="page-loading">
    <Spinner />
  </div>
)

/** The site's pages, inside its layout; the first matching route wins. */
function SitePages() {
  return (
    <SiteLayout>
      <Switch>
        <Route path="/" component={HomeRoute} />
        <Route path="/tournament" component={TournamentRoute} />
        <Route path="/contact" component={ContactRoute} />
        <Route path="/matches/:id" component={MatchRoute} />
        <Route path="/players/:id" component={PlayerRoute} />
        <Route path="/tournaments/:name/teams/:team" component={TeamRoute} />
        <Route path="/league" component={LeagueRoute} />
        <Route path="/search" component={SearchRoute} />
        <Route path="/admin/matches" component={AdminMatchesRoute} />
        <Route path="/admin/metrics" component={AdminMetricsRoute} />
        <Route path="/auction" component={AuctionRoute} />
        <Route path="/captain" component={CaptainRoute} />
        <Route path="/admin" component={AdminRoute} />
        <Route path="/notifications/off" component={NotificationsOffRoute} />
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
      <Route path="/ppt">
        <Suspense fallback={pageLoading}>
          <PptRoute />
        </Suspense>
      </Route>
      <Route component={SitePages} />
    </Switch>
  )
}
