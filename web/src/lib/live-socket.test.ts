import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openLiveSocket } from './live-socket'

class FakeSocket {
  static all: FakeSocket[] = []
  static OPEN = 1
  static CLOSED = 3
  readyState = 0
  sent: string[] = []
  onopen: (() => void) | null = null
  onmessage: ((ev: { data: string }) => void) | null = null
  onclose: ((ev: { code: number }) => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  send(s: string) {
    this.sent.push(s)
  }
  close(code = 1000) {
    this.readyState = 3
    this.onclose?.({ code })
  }
  open() {
    this.readyState = 1
    this.onopen?.()
  }
}

describe('openLiveSocket', () => {
  beforeEach(() => {
    FakeSocket.all = []
    vi.useFakeTimers()
    vi.stubGlobal('WebSocket', FakeSocket)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })
  const handlers = () => ({ onOpen: vi.fn(), onMessage: vi.fn(), onClose: vi.fn() })

  it('reconnects after a close, waiting the backoff delay', () => {
    const h = handlers()
    openLiveSocket('ws://x/api/ws', h, { delay: (n) => 100 * (n + 1) })
    FakeSocket.all[0].close(1006)
    expect(h.onClose).toHaveBeenCalledWith(FakeSocket.all[0], 1006)
    vi.advanceTimersByTime(99)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
  })

  it('passes text frames on and pings while open', () => {
    const h = handlers()
    openLiveSocket('ws://x/api/ws', h, { ping: 'P', pingEveryMs: 1000, silentForMs: 5000 })
    const s = FakeSocket.all[0]
    s.open()
    expect(h.onOpen).toHaveBeenCalledWith(s)
    s.onmessage?.({ data: '{"type":"pong"}' })
    expect(h.onMessage).toHaveBeenCalledWith('{"type":"pong"}')
    vi.advanceTimersByTime(1000)
    expect(s.sent).toEqual(['P'])
  })

  it('closes a socket that has been silent too long, then opens another', () => {
    const h = handlers()
    openLiveSocket('ws://x/api/ws', h, { pingEveryMs: 1000, silentForMs: 2500, delay: () => 0 })
    FakeSocket.all[0].open()
    vi.advanceTimersByTime(2000)
    expect(FakeSocket.all[0].readyState).toBe(1)
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all[0].readyState).toBe(3)
    expect(h.onClose).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
  })

  it('stops for good: no reconnect after stop', () => {
    const h = handlers()
    const stop = openLiveSocket('ws://x/api/ws', h, { delay: () => 0 })
    FakeSocket.all[0].open()
    stop()
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all).toHaveLength(1)
    expect(h.onClose).toHaveBeenCalledTimes(1)
  })
})
