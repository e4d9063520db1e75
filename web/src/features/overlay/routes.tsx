// /overlay/*: pages for a stream's browser source, outside the site's layout. Each loads on its own.
import { lazy, Suspense } from 'react'
import { Route, Routes } from 'react-router'

const AuctionOverlay = lazy(() => import('./auction-overlay'))
const MatchOverlay = lazy(() => import('./match-overlay'))
const StandingsOverlay = lazy(() => import('./standings-overlay'))

export default function OverlayRoutes() {
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route path="auction" element={<AuctionOverlay />} />
        <Route path="match/:id" element={<MatchOverlay />} />
        <Route path="standings" element={<StandingsOverlay />} />
        <Route path="*" element={null} />
      </Routes>
    </Suspense>
  )
}
