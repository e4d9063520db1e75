// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { rumRoute, startRum } from './rum'

type Report = (m: { name: string; value: number }) => void

/** A stand-in for the web-vitals module: each onX keeps its reporter, which the test calls. */
function fakeVitals() {
  const reporters: Record<string, Report> = {}
  const on = (name: string) => (r: Report) => {
    reporters[name] = r
  }
  const mod = { onLCP: on('LCP'), onINP: on('INP'), onCLS: on('CLS'), onTTFB: on('TTFB'), onFCP: on('FCP') }
  return { mod, report: (name: string, value: number) => reporters[name]({ name, value }), loaded: () => Object.keys(reporters).length > 0 }
}

/** The page's readiness and idle moments, driven by the test. */
function pageClock() {
  let state: DocumentReadyState = 'loading'
  const frames: FrameRequestCallback[] = []
  const idles: IdleRequestCallback[] = []
  vi.spyOn(document, 'readyState', 'get').mockImplementation(() => state)
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb))
  vi.stubGlobal('requestIdleCallback', (cb: IdleRequestCallback) => idles.push(cb))
  vi.stubGlobal('cancelIdleCallback', () => undefined)
  return {
    load() {
      state = 'complete'
      window.dispatchEvent(new Event('load'))
    },
    paint: () => frames.splice(0).forEach((f) => f(0)),
    idle: () => idles.splice(0).forEach((f) => f({ didTimeout: false, timeRemaining: () => 10 })),
  }
}

function hide() {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
  document.dispatchEvent(new Event('visibilitychange'))
}

const flush = () => new Promise((r) => setTimeout(r, 0))

/** The beacon's JSON (jsdom's Blob has no text(); its FileReader reads it). */
function bodyOf(blob: Blob): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(JSON.parse(String(reader.result)))
    reader.onerror = () => reject(reader.error)
    reader.readAsText(blob)
  })
}

describe('rumRoute', () => {
  it('names pages by their pattern, never by an id or a query', () => {
    expect(rumRoute('/')).toBe('/')
    expect(rumRoute('/tournament/')).toBe('/tournament')
    expect(rumRoute('/matches/42')).toBe('/matches/:id')
    expect(rumRoute('/overlay/match/7')).toBe('/overlay/match/:id')
    expect(rumRoute('/admin/metrics')).toBe('/admin/metrics')
    expect(rumRoute('/players/12')).toBe('/players/:id')
    expect(rumRoute('/tournaments/PPL7/teams/A')).toBe('/tournaments/:name/teams/:team')
    expect(rumRoute('/league')).toBe('/league')
    expect(rumRoute('/search')).toBe('/search')
    expect(rumRoute('/players/12/extra')).toBe('other')
    expect(rumRoute('/no-such-page')).toBe('other')
  })
})

describe('startRum', () => {
  let stop: () => void = () => undefined
  beforeEach(() => {
    vi.restoreAllMocks()
  })
  afterEach(() => {
    stop()
    vi.unstubAllGlobals()
  })

  it('a page load outside the sample loads nothing and sends nothing', async () => {
    const clock = pageClock()
    const loadVitals = vi.fn()
    const send = vi.fn()
    stop = startRum({ sampleRate: 0.25, random: () => 0.25, pathname: '/', loadVitals, send })
    clock.load()
    clock.paint()
    clock.idle()
    window.dispatchEvent(new Event('pagehide'))
    await flush()
    expect(loadVitals).not.toHaveBeenCalled()
    expect(send).not.toHaveBeenCalled()
  })

  it('loads web-vitals only after the load, a painted frame and an idle moment', async () => {
    const clock = pageClock()
    const vitals = fakeVitals()
    const loadVitals = vi.fn(async () => vitals.mod)
    stop = startRum({ sampleRate: 1, random: () => 0.99, pathname: '/tournament', loadVitals, send: vi.fn(() => true) })
    await flush()
    expect(loadVitals).not.toHaveBeenCalled() // still loading: the first paint owes it nothing
    clock.load()
    expect(loadVitals).not.toHaveBeenCalled()
    clock.paint()
    expect(loadVitals).not.toHaveBeenCalled()
    clock.idle()
    await flush()
    expect(loadVitals).toHaveBeenCalledTimes(1)
    expect(vitals.loaded()).toBe(true)
  })

  it('sends the page pattern and its values with sendBeacon on pagehide, each value once', async () => {
    const clock = pageClock()
    const vitals = fakeVitals()
    const send = vi.fn((_url: string, _body: Blob) => true)
    stop = startRum({ sampleRate: 0.5, random: () => 0.1, pathname: '/matches/12', loadVitals: async () => vitals.mod, send })
    clock.load()
    clock.paint()
    clock.idle()
    await flush()
    vitals.report('LCP', 1234.56)
    vitals.report('TTFB', 88)
    vitals.report('CLS', 0.0123)
    window.dispatchEvent(new Event('pagehide'))
    expect(send).toHaveBeenCalledTimes(1)
    const [url, blob] = send.mock.calls[0]
    expect(url).toBe('/api/rum')
    expect(blob.type).toBe('application/json')
    expect(await bodyOf(blob)).toEqual({
      route: '/matches/:id',
      metrics: [
        { name: 'LCP', value: 1234.56 },
        { name: 'TTFB', value: 88 },
        { name: 'CLS', value: 0.012 },
      ],
    })
    // Hidden again with one new value: only that one goes.
    vitals.report('INP', 64)
    hide()
    expect(send).toHaveBeenCalledTimes(2)
    expect(await bodyOf(send.mock.calls[1][1])).toEqual({ route: '/matches/:id', metrics: [{ name: 'INP', value: 64 }] })
    window.dispatchEvent(new Event('pagehide'))
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('keeps what the browser refused to queue for the next time', async () => {
    const clock = pageClock()
    const vitals = fakeVitals()
    const send = vi.fn().mockReturnValueOnce(false).mockReturnValue(true)
    stop = startRum({ sampleRate: 1, random: () => 0, pathname: '/', loadVitals: async () => vitals.mod, send })
    clock.load()
    clock.paint()
    clock.idle()
    await flush()
    vitals.report('LCP', 900)
    window.dispatchEvent(new Event('pagehide'))
    window.dispatchEvent(new Event('pagehide'))
    expect(send).toHaveBeenCalledTimes(2)
    expect(await bodyOf(send.mock.calls[1][1])).toEqual({ route: '/', metrics: [{ name: 'LCP', value: 900 }] })
  })
})
