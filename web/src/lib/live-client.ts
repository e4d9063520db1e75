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

type ServerFrame =
  | LiveEvent
  | { type: 'resync'; topic: string }
  | { type: 'error'; message: string }
  | { type: 'pong' }

export type ClientFrame =
  | { type: 'auth'; token: string }
  | { type: 'subscribe'; topics: string[]; since?: Record<string, number> }
  | { type: 'unsubscribe'; topics: string[] }
  | { type: 'ping' }

export type LiveListener = {
  onEvent?: (ev: LiveEvent) => void
  /** The hub could not replay what was missed (or a gap was seen): reload over REST. */
  onResync?: () => void
  /** The socket came back after a drop: state that must be exact (a countdown) is read again. */
  onReconnect?: () => void
}

const BUFFER_SIZE = 200

/** Reconnect delay: exponential from 500 ms, capped at 30 s, with "equal jitter" (50-100 %). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 500 * 2 ** Math.max(0, attempt))
  return Math.round(base / 2 + (random() * base) / 2)
}

export class LiveClient {
  private listeners = new Map<string, Set<LiveListener>>()
  private seqs = new Map<string, number>()
  private buffers = new Map<string, LiveEvent[]>()
  private send: ((frame: ClientFrame) => void) | null = null
  private opened = false
  /** Last error frame, for debugging and tests. */
  lastError: string | null = null

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
    if (since !== undefined) this.noteSeq(topic, since)
    let set = this.listeners.get(topic)
    const first = !set
    if (!set) {
      set = new Set()
      this.listeners.set(topic, set)
    }
    set.add(listener)
    if (first && this.send) this.send(this.subscribeFrame([topic]))
    return () => {
      const s = this.listeners.get(topic)
      if (!s) return
      s.delete(listener)
      if (s.size === 0) {
        this.listeners.delete(topic)
        this.send?.({ type: 'unsubscribe', topics: [topic] })
      }
    }
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
        this.resync(frame.topic)
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

  private resync(topic: string, forgetSeq = true) {
    if (forgetSeq) this.seqs.delete(topic)
    for (const l of [...(this.listeners.get(topic) ?? [])]) l.onResync?.()
  }

  private subscribeFrame(topics: string[]): ClientFrame {
    const since: Record<string, number> = {}
    for (const t of topics) {
      const s = this.seqs.get(t)
      if (s !== undefined) since[t] = s
    }
    return Object.keys(since).length ? { type: 'subscribe', topics, since } : { type: 'subscribe', topics }
  }
}
