import { Suspense, type ReactNode } from 'react'
import { AuthHost } from './auth-host'
import { Spinner } from '@/components/ui/spinner'
import { BackToTop } from '@/components/layout/back-to-top'
import { Footer } from '@/components/layout/footer'
import { Header } from '@/components/layout/header'
import { ScrollManager } from '@/components/layout/scroll-manager'
import { NoticeToasts } from '@/features/notifications/components/notice-toasts'

export function SiteLayout({ children }: { children: ReactNode }) {
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
          {children}
        </Suspense>
      </main>
      <Footer />
      <BackToTop />
      <NoticeToasts />
    </>
  )
}
