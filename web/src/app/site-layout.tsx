import { Suspense, useEffect, type ReactNode } from 'react'
import { useLocation } from '@/lib/router'
import { AuthHost } from './auth-host'
import { ChunkBoundary } from './chunk-boundary'
import { retryableLazy } from './lazy-page'
import { preloadNextWhenIdle, preloadPage } from './page-chunks'
import { Spinner } from '@/components/ui/spinner'
import { Header } from '@/components/layout/header'
import { ScrollManager } from '@/components/layout/scroll-manager'

const SiteExtras = retryableLazy(() => import('./site-extras'))

export function SiteLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  useEffect(() => preloadNextWhenIdle(pathname), [pathname])
  return (
    <>
      {/* First, so its window-event listeners exist before any page fires one. */}
      <ChunkBoundary quiet>
        <AuthHost />
      </ChunkBoundary>
      <ScrollManager />
      <div id="top" />
      <Header onIntent={preloadPage} />
      <main id="main" tabIndex={-1}>
        {/* A page whose chunk could not be fetched (offline) says so inside the layout; another page starts afresh. */}
        <ChunkBoundary key={pathname}>
          <Suspense
            fallback={
              <div className="page-loading">
                <Spinner />
              </div>
            }
          >
            {children}
          </Suspense>
        </ChunkBoundary>
      </main>
      <ChunkBoundary quiet>
        <Suspense fallback={null}>
          <SiteExtras />
        </Suspense>
      </ChunkBoundary>
    </>
  )
}
