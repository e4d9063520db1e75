import { describe, expect, it, vi } from 'vitest'
import { backoffDelay, LiveClient, resyncDelay, type ClientFrame } from './live-client'

const ev = (topic: string, seq: number, event = 'player.registered', data: unknown = {}) =>
  JSON.stringify({ type: 'event', topic, seq, event, data, ts: '2026-01-01T00:00:00Z' })

describe('LiveClient', () => {
  it('authenticates first, then subscribes to the wanted topics on open', () => {
    const c = new LiveClient()
    c.subscribe('registrations', {}, 41)
    c.subscribe('deck', {})
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), 'jwt')
    expect(sent[0]).toEqual({ type: 'auth', token: 'jwt' })
    expect(sent[1]).toEqual({ type: 'subscribe', topics: ['registrations', 'deck'], since: { registrations: 41 } })
  })

  it('sends no auth frame when signed out, and subscribes topics added while open', () => {
    const c = new LiveClient()
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), null)
    expect(sent).toEqual([])
    const off = c.subscribe('teams', {})
    expect(sent).toEqual([{ type: 'subscribe', topics: ['teams'] }])
    off()
    expect(sent[1]).toEqual({ type: 'unsubscribe', topics: ['teams'] })
  })

  it('dispatches events once, in order, and ignores replays it has seen', () => {
    const c = new LiveClient()
    const got: number[] = []
    c.subscribe('registrations', { onEvent: (e) => got.push(e.seq) }, 10)
    c.handleFrame(ev('registrations', 11))
    c.handleFrame(ev('registrations', 11))
    c.handleFrame(ev('registrations', 9))
    c.handleFrame(ev('registrations', 12))
    expect(got).toEqual([11, 12])
    expect(c.lastSeq('registrations')).toBe(12)
  })

  it('resubscribes after a reconnect from the last seq seen per topic', () => {
    const c = new LiveClient()
    c.subscribe('registrations', {}, 3)
    c.subscribe('deck', {}, 7)
    c.open(() => undefined, null)
    c.handleFrame(ev('registrations', 4))
    c.handleFrame(ev('deck', 8, 'slide.changed', { slide: 2 }))
    c.close()
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), 'jwt2')
    expect(sent).toEqual([
      { type: 'auth', token: 'jwt2' },
      { type: 'subscribe', topics: ['registrations', 'deck'], since: { registrations: 4, deck: 8 } },
    ])
  })

  it('a resync frame tells the listeners to refetch and forgets the seq', () => {
    const c = new LiveClient()
    const onResync = vi.fn()
    c.subscribe('registrations', { onResync }, 5)
    c.handleFrame(JSON.stringify({ type: 'resync', topic: 'registrations' }))
    expect(onResync).toHaveBeenCalledTimes(1)
    expect(c.lastSeq('registrations')).toBeUndefined()
  })

  it('a gap in seq is treated as a resync', () => {
    const c = new LiveClient()
    const onResync = vi.fn()
    const onEvent = vi.fn()
    c.subscribe('registrations', { onResync, onEvent }, 5)
    c.handleFrame(ev('registrations', 8))
    expect(onResync).toHaveBeenCalledTimes(1)
    expect(onEvent).not.toHaveBeenCalled()
  })

  it('keeps recent events so a list fetched meanwhile can replay them', () => {
    const c = new LiveClient()
    c.subscribe('registrations', {})
    c.handleFrame(ev('registrations', 20))
    c.handleFrame(ev('registrations', 21))
    expect(c.eventsAfter('registrations', 20).map((e) => e.seq)).toEqual([21])
  })

  it('tells listeners of a reconnect (not of the first connection), after resubscribing', () => {
    const c = new LiveClient()
    const reconnects = vi.fn()
    c.subscribe('teams', { onReconnect: reconnects }, 5)
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), null)
    expect(reconnects).not.toHaveBeenCalled()
    c.close()
    c.open((f) => sent.push(f), null)
    expect(reconnects).toHaveBeenCalledTimes(1)
    expect(sent.at(-1)).toEqual({ type: 'subscribe', topics: ['teams'], since: { teams: 5 } })
  })

  it('on the first connection, asks the listeners of a topic read without a seq to read again', () => {
    // The page read the phase before the socket opened; the hub cannot replay what it missed.
    const c = new LiveClient()
    const phaseReads = vi.fn()
    const listReads = vi.fn()
    c.subscribe('registrations', { onReconnect: phaseReads })
    c.subscribe('teams', { onReconnect: listReads }, 5)
    c.open(() => undefined, null)
    expect(phaseReads).toHaveBeenCalledTimes(1)
    expect(listReads).not.toHaveBeenCalled() // the hub replays from seq 5
  })

  it('a socket replaced by a new one (a login) closing late does not cut the new one off', () => {
    const c = new LiveClient()
    const first: ClientFrame[] = []
    const second: ClientFrame[] = []
    const sendFirst = (f: ClientFrame) => first.push(f)
    c.open(sendFirst, null)
    c.open((f) => second.push(f), 'jwt')
    c.close(sendFirst)
    expect(c.connected).toBe(true)
    c.subscribe('teams', {})
    expect(second.at(-1)).toEqual({ type: 'subscribe', topics: ['teams'] })
    expect(first).toEqual([])
  })

  it('records error frames and ignores pong and garbage', () => {
    const c = new LiveClient()
    c.handleFrame(JSON.stringify({ type: 'error', message: 'not allowed' }))
    c.handleFrame(JSON.stringify({ type: 'pong' }))
    c.handleFrame('not json')
    expect(c.lastError).toBe('not allowed')
  })
})

describe('backoffDelay', () => {
  it('waits anywhere in 0-2 s first, then grows exponentially with jitter, capped at 30 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(0)
    expect(backoffDelay(0, () => 0.5)).toBe(1000)
    expect(backoffDelay(0, () => 1)).toBe(2000)
    expect(backoffDelay(1, () => 0)).toBe(2000)
    expect(backoffDelay(1, () => 1)).toBe(4000)
    expect(backoffDelay(3, () => 0.5)).toBe(12_000)
    expect(backoffDelay(20, () => 1)).toBe(30_000)
    expect(backoffDelay(20, () => 0)).toBe(15_000)
  })

  it('spreads a thousand clients over the first two seconds', () => {
    let x = 1
    const lcg = () => ((x = (x * 48271) % 2147483647) / 2147483647)
    const delays = Array.from({ length: 1000 }, () => backoffDelay(0, lcg))
    const perQuarter = [0, 0, 0, 0, 0, 0, 0, 0]
    for (const d of delays) perQuarter[Math.min(7, Math.floor(d / 250))]++
    for (const n of perQuarter) expect(n).toBeGreaterThan(80) // ~125 each; none empty, none crowded
    expect(Math.max(...delays)).toBeLessThanOrEqual(2000)
  })
})

describe('resyncDelay', () => {
  it('waits anywhere in 0-2 s, or in the window the server asks for, at most 30 s', () => {
    expect(resyncDelay(undefined, () => 0)).toBe(0)
    expect(resyncDelay(undefined, () => 1)).toBe(2000)
    expect(resyncDelay(500, () => 1)).toBe(2000)
    expect(resyncDelay(8000, () => 0.5)).toBe(4000)
    expect(resyncDelay(120_000, () => 1)).toBe(30_000)
  })

  it('reads again after the delay, once for resyncs that come meanwhile', () => {
    vi.useFakeTimers()
    try {
      const hints: (number | undefined)[] = []
      const c = new LiveClient({ resyncDelay: (h) => (hints.push(h), 1500) })
      let reads = 0
      c.subscribe('bracket', { onResync: () => reads++ }, 3)
      c.handleFrame(JSON.stringify({ type: 'resync', topic: 'bracket', retry_after_ms: 6000 }))
      c.handleFrame(JSON.stringify({ type: 'resync', topic: 'bracket' }))
      expect(hints).toEqual([6000])
      expect(c.lastSeq('bracket')).toBeUndefined()
      vi.advanceTimersByTime(1499)
      expect(reads).toBe(0)
      vi.advanceTimersByTime(1)
      expect(reads).toBe(1)
      c.handleFrame(JSON.stringify({ type: 'resync', topic: 'bracket' }))
      vi.advanceTimersByTime(1500)
      expect(reads).toBe(2)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('pages brought by a resync', () => {
  const page = '/api/tournaments/PPL7/auction'

  it('names the page of each topic when it subscribes, and later for a topic already followed', () => {
    const c = new LiveClient()
    c.subscribe('teams', { page, onPage: () => undefined }, 4)
    c.subscribe('deck', {})
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), null)
    expect(sent).toEqual([{ type: 'subscribe', topics: ['teams', 'deck'], since: { teams: 4 }, pages: { teams: page } }])
    c.subscribe('deck', { page: '/api/deck', onPage: () => undefined })
    expect(sent[1]).toEqual({ type: 'subscribe', topics: ['deck'], pages: { deck: '/api/deck' } })
  })

  it('hands the page to the listener that shows it at once, at the seq it was read at; the others read again', () => {
    vi.useFakeTimers()
    try {
      const c = new LiveClient({ resyncDelay: () => 1000 })
      const pages: unknown[] = []
      let reads = 0
      const events: number[] = []
      c.subscribe('teams', { page, onPage: (p) => pages.push(p), onResync: () => reads++, onEvent: (e) => events.push(e.seq) }, 4)
      c.subscribe('teams', { onResync: () => reads++ })
      c.handleFrame(JSON.stringify({ type: 'resync', topic: 'teams', seq: 9, path: page, page: { seq: 9, lot: null } }))
      expect(pages).toEqual([{ seq: 9, lot: null }])
      expect(c.lastSeq('teams')).toBe(9)
      c.handleFrame(ev('teams', 9))
      c.handleFrame(ev('teams', 10))
      expect(events).toEqual([10]) // the page holds 9
      expect(reads).toBe(0)
      vi.advanceTimersByTime(1000)
      expect(reads).toBe(1) // only the listener that shows another page
    } finally {
      vi.useRealTimers()
    }
  })

  it('a page for another path is not taken: the listener reads its own', () => {
    const c = new LiveClient()
    const onPage = vi.fn()
    const onResync = vi.fn()
    c.subscribe('teams', { page, onPage, onResync }, 4)
    c.handleFrame(JSON.stringify({ type: 'resync', topic: 'teams', seq: 9, path: '/api/tournaments/PPL8/auction', page: {} }))
    expect(onPage).not.toHaveBeenCalled()
    expect(onResync).toHaveBeenCalledTimes(1)
  })
})

describe('LiveClient, a topic followed first without a seq', () => {
  it('subscribes again from the seq a later listener read its state at', () => {
    const c = new LiveClient()
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), null)
    c.subscribe('bracket', { onCheers: () => undefined })
    c.subscribe('bracket', { page: '/api/tournaments/PPL7/bracket' }, 10)
    expect(sent).toEqual([
      { type: 'subscribe', topics: ['bracket'] },
      { type: 'subscribe', topics: ['bracket'], since: { bracket: 10 }, pages: { bracket: '/api/tournaments/PPL7/bracket' } },
    ])
    c.subscribe('bracket', {}, 12)
    expect(sent).toHaveLength(2)
  })
})
