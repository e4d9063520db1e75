import { Suspense } from 'react'
import { Outlet } from 'react-router'
import { AuthHost } from './auth-host'
import { Spinner } from '@/components/ui/spinner'
import { BackToTop } from '@/components/layout/back-to-top'
import { Footer } from '@/components/layout/footer'
import { Header } from '@/components/layout/header'
import { ScrollManager } from '@/components/layout/scroll-manager'
import { NoticeToasts } from '@/features/notifications/components/notice-toasts'

export function SiteLayout() {
  return (
    <>
      {/* First, so its window-event listeners exist before any page fires one. */}
      <AuthHost />
      <ScrollManager />
      <div id="top" />
      <Header />
      <main id="main" tabIndex={-1}>
        <Suspense
          fallback={
            <div className="page-loading">
              <Spinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <BackToTop />
      <NoticeToasts />
    </>
  )
}
