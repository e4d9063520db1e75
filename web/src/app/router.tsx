import { lazy, Suspense } from 'react'
import { BrowserRouter, Route, Routes } from 'react-router'
import { Spinner } from '@/components/ui/spinner'
import { SiteLayout } from './site-layout'

// Every page loads its own chunk when visited (the first bundle is the shell: header, footer,
// session, live socket).
const HomeRoute = lazy(() => import('./routes/home'))
const NotFoundRoute = lazy(() => import('./routes/not-found'))
const TournamentRoute = lazy(() => import('./routes/tournament'))
const ContactRoute = lazy(() => import('./routes/contact'))
const PptRoute = lazy(() => import('./routes/ppt'))
const MatchRoute = lazy(() => import('./routes/match'))
const AdminMatchesRoute = lazy(() => import('./routes/admin-matches'))
const AuctionRoute = lazy(() => import('./routes/auction'))
const CaptainRoute = lazy(() => import('./routes/captain'))
const AdminRoute = lazy(() => import('./routes/admin'))
const NotificationsOffRoute = lazy(() => import('./routes/notifications-off'))
// Stream overlays: no site layout, each overlay its own chunk (app/overlay/routes).
const OverlayRoutes = lazy(() => import('@/app/overlay/routes'))

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SiteLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path="tournament" element={<TournamentRoute />} />
        <Route path="contact" element={<ContactRoute />} />
        <Route path="matches/:id" element={<MatchRoute />} />
        <Route path="admin/matches" element={<AdminMatchesRoute />} />
        <Route path="auction" element={<AuctionRoute />} />
        <Route path="captain" element={<CaptainRoute />} />
        <Route path="admin" element={<AdminRoute />} />
        <Route path="notifications/off" element={<NotificationsOffRoute />} />
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
      <Route
        path="overlay/*"
        element={
          <Suspense fallback={null}>
            <OverlayRoutes />
          </Suspense>
        }
      />
      <Route
        path="ppt"
        element={
          <Suspense
            fallback={
              <div className="page-loading">
                <Spinner />
              </div>
            }
          >
            <PptRoute />
          </Suspense>
        }
      />
    </Routes>
  )
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  )
}
