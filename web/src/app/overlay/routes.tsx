// /overlay/*: pages for a stream's browser source, outside the site's layout. Each loads on its own.
import { lazy, Suspense } from 'react'
import { Route, Switch } from '@/lib/router'

const AuctionOverlay = lazy(() => import('./auction-overlay'))
const MatchOverlay = lazy(() => import('./match-overlay'))
const StandingsOverlay = lazy(() => import('./standings-overlay'))

export default function OverlayRoutes() {
  return (
    <Suspense fallback={null}>
      <Switch>
        <Route path="/auction" component={AuctionOverlay} />
        <Route path="/match/:id" component={MatchOverlay} />
        <Route path="/standings" component={StandingsOverlay} />
      </Switch>
    </Suspense>
  )
}
