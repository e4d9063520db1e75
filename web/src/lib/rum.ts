// Real-user page timings (docs/metrics.md): a sampled share of page loads measures its web-vitals
// (LCP, INP, CLS, TTFB, FCP) with the web-vitals package and sends them to POST /api/rum with
// navigator.sendBeacon when the page is hidden or left. Nothing of it runs before the first paint:
// the package (about 3 KB gzipped) is imported when the browser is idle after the page's load,
// and only on the pages sampled. web-vitals reads the browser's buffered performance entries, so
// starting late loses no measurement.

import PAGE_PATTERNS from './page-patterns.json'

/**
 * The site's pages as the server knows them (page-patterns.json, which a test keeps equal to the
 * router's routes, and internal/metrics's Routes to it): a pattern, never a path with an id or a query.
 */
export const RUM_ROUTES: readonly string[] = PAGE_PATTERNS

/** Whether path's segments are the pattern's: `:id` stands for a number, any other `:name` for a segment. */
function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/')
  const got = path.split('/')
  const fits = (seg: string, i: number) => (seg === ':id' ? /^\d+$/.test(got[i]) : seg.startsWith(':') ? got[i] !== '' : seg === got[i])
  return want.length === got.length && want.every(fits)
}

/** The pattern of the page at pathname: `/matches/12` → `/matches/:id`; `other` for no page. */
export function rumRoute(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/'
  return RUM_ROUTES.find((pattern) => matches(pattern, path)) ?? 'other'
}

type Metric = { name: string; value: number }
type Report = (m: Metric) => void
type Vitals = {
  onLCP: (r: Report) => void
  onINP: (r: Report, o?: { reportAllChanges?: boolean }) => void
  onCLS: (r: Report, o?: { reportAllChanges?: boolean }) => void
  onTTFB: (r: Report) => void
  onFCP: (r: Report) => void
}

export type RumOptions = {
  /** The share of page loads measured (RUM_SAMPLE_RATE, from /api/config). */
  sampleRate: number
  /** The page's pathname when it loaded. */
  pathname: string
  random?: () => number
  loadVitals?: () => Promise<Vitals>
  send?: (url: string, body: Blob) => boolean
  win?: Window
}

export const RUM_URL = '/api/rum'

/**
 * Measures this page load when it is sampled; answers a function that stops it. The web-vitals
 * chunk is fetched once the page has loaded, painted and the browser is idle.
 */
export function startRum(opts: RumOptions): () => void {
  const win = opts.win ?? window
  const random = opts.random ?? Math.random
  if (!(opts.sampleRate > 0) || random() >= opts.sampleRate) return () => undefined
  const route = rumRoute(opts.pathname)
  const loadVitals = opts.loadVitals ?? (() => import('web-vitals'))
  const send = opts.send ?? ((url: string, body: Blob) => win.navigator.sendBeacon?.(url, body) ?? false)
  const latest = new Map<string, number>()
  const sent = new Map<string, number>()
  let stopped = false

  // What changed since the last beacon, in one beacon: a page hidden twice sends a later INP or
  // CLS again, never the same value twice.
  const flush = () => {
    const metrics: Metric[] = []
    for (const [name, value] of latest) {
      if (sent.get(name) !== value) metrics.push({ name, value: Math.round(value * 1000) / 1000 })
    }
    if (metrics.length === 0) return
    const body = new Blob([JSON.stringify({ route, metrics })], { type: 'application/json' })
    if (send(RUM_URL, body)) for (const m of metrics) sent.set(m.name, latest.get(m.name)!)
  }
  const onHidden = () => {
    if (win.document.visibilityState === 'hidden') flush()
  }

  const measure = () => {
    if (stopped) return
    void loadVitals()
      .then((v) => {
        if (stopped) return
        const keep: Report = (m) => latest.set(m.name, m.value)
        v.onLCP(keep)
        v.onFCP(keep)
        v.onTTFB(keep)
        v.onINP(keep, { reportAllChanges: true })
        v.onCLS(keep, { reportAllChanges: true })
        // After web-vitals' own listeners, which report the final LCP and CLS on hiding.
        win.document.addEventListener('visibilitychange', onHidden)
        win.addEventListener('pagehide', flush)
        // Seen in DevTools' performance panel (and waited for by the browser test): from here on,
        // leaving the page sends its timings.
        win.performance?.mark?.('rum:listening')
      })
      .catch(() => undefined)
  }

  let idle = 0
  const whenIdle = () => {
    // A frame after the load (painted), then the browser's first idle moment.
    win.requestAnimationFrame(() => {
      idle = typeof win.requestIdleCallback === 'function' ? win.requestIdleCallback(measure, { timeout: 5000 }) : win.setTimeout(measure, 1000)
    })
  }
  if (win.document.readyState === 'complete') whenIdle()
  else win.addEventListener('load', whenIdle, { once: true })

  return () => {
    stopped = true
    win.removeEventListener('load', whenIdle)
    if (typeof win.cancelIdleCallback === "function") win.cancelIdleCallback(idle)
    else win.clearTimeout(idle)
    win.document.removeEventListener('visibilitychange', onHidden)
    win.removeEventListener('pagehide', flush)
  }
}
