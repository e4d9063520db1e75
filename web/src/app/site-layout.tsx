import { lazy, Suspense, useEffect, type ReactNode } from 'react'
import { useLocation } from '@/lib/router'
import { AuthHost } from './auth-host'
import { preloadNextWhenIdle, preloadPage } from './page-chunks'
import { Spinner } from '@/components/ui/spinner'
import { Header } from '@/components/layout/header'
import { ScrollManager } from '@/components/layout/scroll-manager'

const SiteExtras = lazy(() => import('./site-extras'))

export function SiteLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  useEffect(() => preloadNextWhenIdle(pathname), [pathname])
  return (
    <>
      {/* First, so its window-event listeners exist before any page fires one. */}
      <AuthHost />
      <ScrollManager />
      <div id="top" />
      <Header onIntent={preloadPage} />
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
      <Suspense fallback={null}>
        <SiteExtras />
      </Suspense>
    </>
  )
}
