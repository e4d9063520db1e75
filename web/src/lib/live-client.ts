// The protocol side of the live hub (docs/hub.md, "Protocol as built"), kept free of React so it can be
// tested frame by frame: which topics are wanted, the last seq seen per topic, the frames to
// send after (re)connecting, and the dispatch of server frames to listeners.

export type LiveEvent<D = unknown> = {
  type: 'event'
  topic: string
  seq: number
  event: string
  data: D
  ts?: string
}

/** A window of cheers on a topic, all instances' taps merged (docs/hub.md, "Live cheers"). */
export type CheersFrame = { type: 'cheers'; topic: string; counts: Record<string, number>; window_ms: number }

type ServerFrame =
  | LiveEvent
  | CheersFrame
  | { type: 'resync'; topic: string; retry_after_ms?: number; seq?: number; path?: string; page?: unknown }
  | { type: 'error'; message: string }
  | { type: 'pong' }

export type ClientFrame =
  | { type: 'auth'; token: string }
  | { type: 'subscribe'; topics: string[]; since?: Record<string, number>; pages?: Record<string, string> }
  | { type: 'unsubscribe'; topics: string[] }
  | { type: 'ping' }
  | { type: 'cheer'; topic: string; kind: string }

export type LiveListener = {
  onEvent?: (ev: LiveEvent) => void
  /** The hub could not replay what was missed (or a gap was seen): reload over REST. */
  onResync?: () => void
  /** The socket came back after a drop: state that must be exact (a countdown) is read again. */
  onReconnect?: () => void
  /**
   * The API path of the page this listener shows (`/api/tournaments/PPL7/auction`). The hub is told
   * it when the topic is subscribed; after a mass resync (Redis lost its data) it reads the page once
   * for every client that named it and sends it in the resync frame, so the page need not be read.
   */
  page?: string
  /** The page named by `page`, brought by a resync: the state at the seq the frame gives. */
  onPage?: (page: unknown) => void
  /** A window of cheers on the topic (no seq: not replayed, not counted). */
  onCheers?: (frame: CheersFrame) => void
}

const BUFFER_SIZE = 200

/** How long the first reconnect or resync may wait: every client of an instance picks a moment in it. */
export const SPREAD_MS = 2_000

/**
 * Reconnect delay. The first is anywhere in 0-2 s ("full jitter"), so the thousands of pages an
 * instance loses at once do not all come back in the same instant; then exponential from 2 s,
 * capped at 30 s, with "equal jitter" (50-100 % of the step).
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  if (attempt <= 0) return Math.round(random() * SPREAD_MS)
  const base = Math.min(30_000, SPREAD_MS * 2 ** attempt)
  return Math.round(base / 2 + (random() * base) / 2)
}

/**
 * How long a page waits before reading its state again after a resync: anywhere in 0-2 s, or in
 * the server's wider window when it is under pressure (`retry_after_ms`, at most 30 s).
 */
export function resyncDelay(retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const hint = typeof retryAfterMs === 'number' && retryAfterMs > 0 ? Math.min(retryAfterMs, 30_000) : 0
  return Math.round(random() * Math.max(SPREAD_MS, hint))
}

export type LiveClientOptions = {
  /** The wait before a resync's reads (default none: tests see them at once; the app spreads them). */
  resyncDelay?: (retryAfterMs: number | undefined) => number
}

export class LiveClient {
  private listeners = new Map<string, Set<LiveListener>>()
  private seqs = new Map<string, number>()
  private buffers = new Map<string, LiveEvent[]>()
  private send: ((frame: ClientFrame) => void) | null = null
  private opened = false
  private pendingResyncs = new Map<string, ReturnType<typeof setTimeout>>()
  /** Per topic, the page the hub was told of (the first listener's that names one). */
  private pages = new Map<string, string>()
  private readonly delayResync: (retryAfterMs: number | undefined) => number
  /** Last error frame, for debugging and tests. */
  lastError: string | null = null

  constructor(opts: LiveClientOptions = {}) {
    this.delayResync = opts.resyncDelay ?? (() => 0)
  }

  get connected() {
    return this.send !== null
  }

  /** Called when a socket opens: authenticate, then (re)subscribe from the last seq seen. */
  open(send: (frame: ClientFrame) => void, token: string | null) {
    this.send = send
    const reconnect = this.opened
    this.opened = true
    if (token) send({ type: 'auth', token })
    const topics = [...this.listeners.keys()]
    if (topics.length) send(this.subscribeFrame(topics))
    // After a reconnect every listener reads again. On the first connection too where the topic
    // has no seq: its listeners' reads came before this subscription, and the hub replays only
    // from a seq, so an event published in between (the socket loads after the page) would be lost.
    for (const t of topics) {
      if (!reconnect && this.seqs.has(t)) continue
      for (const l of [...(this.listeners.get(t) ?? [])]) l.onReconnect?.()
    }
  }

  /**
   * A socket closed. Given the `send` it was opened with, a socket replaced by a newer one (a new
   * session) leaves the newer one alone, whichever of the two events comes first.
   */
  close(send?: (frame: ClientFrame) => void) {
    if (send === undefined || this.send === send) this.send = null
  }

  /** Drops what is known of a topic (e.g. `user` after the session changed). */
  forget(topic: string) {
    this.seqs.delete(topic)
    this.buffers.delete(topic)
  }

  lastSeq(topic: string): number | undefined {
    return this.seqs.get(topic)
  }

  /**
   * A REST read of the topic's state was taken at `seq`: subscribe from there. Events already
   * seen past it stay counted (the caller replays them with `eventsAfter`).
   */
  noteSeq(topic: string, seq: number) {
    const cur = this.seqs.get(topic)
    if (cur === undefined || seq > cur) this.seqs.set(topic, seq)
  }

  /** Events of the topic received live with a seq above `seq` (bounded history). */
  eventsAfter(topic: string, seq: number): LiveEvent[] {
    return (this.buffers.get(topic) ?? []).filter((e) => e.seq > seq)
  }

  subscribe(topic: string, listener: LiveListener, since?: number): () => void {
    const hadSeq = this.seqs.has(topic)
    if (since !== undefined) this.noteSeq(topic, since)
    let set = this.listeners.get(topic)
    const first = !set
    if (!set) {
      set = new Set()
      this.listeners.set(topic, set)
    }
    set.add(listener)
    if (first && this.send) this.send(this.subscribeFrame([topic]))
    else if (this.send && since !== undefined && !hadSeq) {
      // The topic was followed without a seq (a cheer bar mounted first): subscribe again from the
      // seq this listener read its state at, so nothing between its read and now is lost.
      this.send(this.subscribeFrame([topic]))
    } else if (this.send && listener.page && !this.pages.has(topic)) {
      // The topic is followed already: tell the hub the page without starting over.
      this.pages.set(topic, listener.page)
      this.send({ type: 'subscribe', topics: [topic], pages: { [topic]: listener.page } })
    }
    return () => {
      const s = this.listeners.get(topic)
      if (!s) return
      s.delete(listener)
      if (s.size === 0) {
        this.listeners.delete(topic)
        this.pages.delete(topic)
        this.send?.({ type: 'unsubscribe', topics: [topic] })
      }
    }
  }

  /** Sends a cheer over the open socket; false when there is none (the caller posts it instead). */
  cheer(topic: string, kind: string): boolean {
    if (!this.send) return false
    this.send({ type: 'cheer', topic, kind })
    return true
  }

  handleFrame(raw: string) {
    let frame: ServerFrame
    try {
      frame = JSON.parse(raw) as ServerFrame
    } catch {
      return
    }
    switch (frame.type) {
      case 'event':
        this.handleEvent(frame)
        break
      case 'resync':
        if (typeof frame.seq === 'number' && typeof frame.path === 'string' && frame.page !== undefined) {
          this.pageResync(frame.topic, frame.seq, frame.path, frame.page)
        } else {
          this.resync(frame.topic, true, frame.retry_after_ms)
        }
        break
      case 'cheers':
        for (const l of [...(this.listeners.get(frame.topic) ?? [])]) l.onCheers?.(frame)
        break
      case 'error':
        this.lastError = frame.message
        break
      default:
        break
    }
  }

  private handleEvent(ev: LiveEvent) {
    const last = this.seqs.get(ev.topic)
    if (typeof ev.seq === 'number') {
      if (last !== undefined && ev.seq <= last) return // already applied (replay overlap)
      const gap = last !== undefined && ev.seq > last + 1
      this.seqs.set(ev.topic, ev.seq)
      const buf = this.buffers.get(ev.topic) ?? []
      buf.push(ev)
      if (buf.length > BUFFER_SIZE) buf.splice(0, buf.length - BUFFER_SIZE)
      this.buffers.set(ev.topic, buf)
      if (gap) {
        // Something was lost between two frames: the cached state can no longer be trusted.
        this.resync(ev.topic, false)
        return
      }
    }
    for (const l of [...(this.listeners.get(ev.topic) ?? [])]) l.onEvent?.(ev)
  }

  /**
   * A resync that brought the page at `seq`: the listeners that show it take it at once; any other
   * listener of the topic reads its own state as after a plain resync.
   */
  private pageResync(topic: string, seq: number, path: string, page: unknown) {
    this.seqs.set(topic, seq)
    const others: LiveListener[] = []
    for (const l of [...(this.listeners.get(topic) ?? [])]) {
      if (l.page === path && l.onPage) l.onPage(page)
      else others.push(l)
    }
    if (others.length) this.resync(topic, false, undefined, others)
  }

  private resync(topic: string, forgetSeq = true, retryAfterMs?: number, only?: LiveListener[]) {
    if (forgetSeq) this.seqs.delete(topic)
    if (this.pendingResyncs.has(topic)) return // one read answers both
    const fire = () => {
      this.pendingResyncs.delete(topic)
      for (const l of only ?? [...(this.listeners.get(topic) ?? [])]) l.onResync?.()
    }
    const wait = this.delayResync(retryAfterMs)
    if (wait <= 0) {
      fire()
      return
    }
    this.pendingResyncs.set(topic, setTimeout(fire, wait))
  }

  private subscribeFrame(topics: string[]): ClientFrame {
    const since: Record<string, number> = {}
    const pages: Record<string, string> = {}
    for (const t of topics) {
      const s = this.seqs.get(t)
      if (s !== undefined) since[t] = s
      const page = [...(this.listeners.get(t) ?? [])].find((l) => l.page)?.page
      if (page) {
        pages[t] = page
        this.pages.set(t, page)
      }
    }
    const frame: ClientFrame = { type: 'subscribe', topics }
    if (Object.keys(since).length) frame.since = since
    if (Object.keys(pages).length) frame.pages = pages
    return frame
  }
}
