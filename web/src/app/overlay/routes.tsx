// /overlay/*: pages for a stream's browser source, outside the site's layout. Each loads on its own.
import { lazy, Suspense, type ComponentType } from 'react'
import { Route, Switch } from '@/lib/router'

const AuctionOverlay = lazy(() => import('./auction-overlay'))
const MatchOverlay = lazy(() => import('./match-overlay'))
const StandingsOverlay = lazy(() => import('./standings-overlay'))

/** The overlays, by their pattern under /overlay (lib/page-patterns.json names them whole). */
export const OVERLAY_PAGES: readonly (readonly [string, ComponentType])[] = [
  ['/auction', AuctionOverlay],
  ['/match/:id', MatchOverlay],
  ['/standings', StandingsOverlay],
]

export default function OverlayRoutes() {
  return (
    <Suspense fallback={null}>
      <Switch>
        {OVERLAY_PAGES.map(([path, page]) => (
          <Route key={path} path={path} component={page} />
        ))}
      </Switch>
    </Suspense>
  )
}
