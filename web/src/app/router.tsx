import { lazy, Suspense } from 'react'
import { Route, Switch } from '@/lib/router'
import { Spinner } from '@/components/ui/spinner'
import { pages } from './page-chunks'
import { SiteLayout } from './site-layout'

// Every page loads its own chunk when visited (the first bundle is the shell: the header, the
// session, the live client; the footer and the socket follow the first render).
const HomeRoute = lazy(pages.home)
const NotFoundRoute = lazy(() => import('./routes/not-found'))
const TournamentRoute = lazy(pages.tournament)
const ContactRoute = lazy(pages.contact)
const PptRoute = lazy(pages.ppt)
const MatchRoute = lazy(pages.match)
const AdminMatchesRoute = lazy(pages.adminMatches)
const AuctionRoute = lazy(pages.auction)
const CaptainRoute = lazy(pages.captain)
const AdminRoute = lazy(pages.admin)
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
        <Route path="/admin/matches" component={AdminMatchesRoute} />
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
