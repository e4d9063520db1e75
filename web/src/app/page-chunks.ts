// Each page's chunk, by path: the router's lazy pages load through these, and a link the visitor
// is about to follow (pointer over it, focus, touch) or the likely next page (when the browser is
// idle after the first load) fetches its chunk ahead, outside the first page's JavaScript.
import type { ComponentType } from 'react'

/** A page's module: its component is the default export. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PageModule = { default: ComponentType<any> }
type Load = () => Promise<PageModule>

export const pages = {
  home: () => import('./routes/home'),
  tournament: () => import('./routes/tournament'),
  contact: () => import('./routes/contact'),
  match: () => import('./routes/match'),
  adminMatches: () => import('./routes/admin-matches'),
  adminMetrics: () => import('./routes/admin-metrics'),
  auction: () => import('./routes/auction'),
  captain: () => import('./routes/captain'),
  admin: () => import('./routes/admin'),
  ppt: () => import('./routes/ppt'),
  player: () => import('./routes/player'),
  team: () => import('./routes/team'),
  league: () => import('./routes/league'),
  search: () => import('./routes/search'),
  streams: () => import('./routes/streams'),
  rooms: () => import('./routes/rooms'),
} satisfies Record<string, Load>

// The modules loaded so far, by their loader: a page whose module is here renders at once, with
// no Suspense fallback in between (app/lazy-page.tsx).
const loaded = new Map<Load, PageModule>()

/** Loads a page's module (once) and remembers it. */
export function loadPage(load: Load): Promise<PageModule> {
  const mod = loaded.get(load)
  if (mod) return Promise.resolve(mod)
  return load().then((m) => {
    loaded.set(load, m)
    return m
  })
}

/** The page's module if it has loaded. */
export function loadedPage(load: Load): PageModule | undefined {
  return loaded.get(load)
}

/** The page chunk a site path opens ('/tournament?tab=reg' → tournament), if any. */
export function pageOf(href: string): Load | undefined {
  const path = href.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/'
  if (path === '/') return pages.home
  if (path === '/admin/matches') return pages.adminMatches
  if (path === '/admin/metrics') return pages.adminMetrics
  if (/^\/matches\/[^/]+$/.test(path)) return pages.match
  if (/^\/players\/[^/]+$/.test(path)) return pages.player
  if (/^\/tournaments\/[^/]+\/teams\/[^/]+$/.test(path)) return pages.team
  if (/^\/rooms\/\d+$/.test(path)) return pages.rooms
  const name = path.slice(1)
  return name in pages && !['adminMatches', 'adminMetrics', 'match', 'player', 'team'].includes(name) ? pages[name as keyof typeof pages] : undefined
}

/** Fetches the chunk of the page `href` opens (a module is fetched once, however often asked). */
export function preloadPage(href: string) {
  const load = pageOf(href)
  if (load) void loadPage(load).catch(() => undefined)
}

/** The page a visitor most often opens next from each page: fetched when the browser is idle. */
const NEXT: Record<string, string> = { '/': '/tournament', '/tournament': '/auction', '/auction': '/tournament' }

/** After the page has loaded, when the browser is idle, fetches the likely next page's chunk. */
export function preloadNextWhenIdle(pathname: string): () => void {
  const next = NEXT[pathname]
  if (!next) return () => undefined
  const idleCallbacks = typeof window.requestIdleCallback === 'function'
  let idle = 0
  const whenIdle = () => {
    idle = idleCallbacks ? window.requestIdleCallback(() => preloadPage(next), { timeout: 5000 }) : window.setTimeout(() => preloadPage(next), 2000)
  }
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
  return () => {
    window.removeEventListener('load', whenIdle)
    if (idleCallbacks) window.cancelIdleCallback(idle)
    else window.clearTimeout(idle)
  }
}
