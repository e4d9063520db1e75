// The live hub's one websocket, with no library: open, reconnect with backoff and jitter after
// any close, and a heartbeat (a ping every 25 s; a socket that has said nothing for 60 s is
// closed and opened again). React-free, so the shared socket code on every page stays small.
import { backoffDelay } from './live-client'

export type LiveSocketHandlers = {
  onOpen: (ws: WebSocket) => void
  onMessage: (data: string) => void
  onClose: (ws: WebSocket, code: number) => void
}

export type LiveSocketOptions = {
  ping?: string
  pingEveryMs?: number
  silentForMs?: number
  delay?: (attempt: number) => number
}

/** Keeps a websocket to `url` open until the returned stop is called. */
export function openLiveSocket(url: string, h: LiveSocketHandlers, opts: LiveSocketOptions = {}): () => void {
  const { ping = JSON.stringify({ type: 'ping' }), pingEveryMs = 25_000, silentForMs = 60_000, delay = backoffDelay } = opts
  let stopped = false
  let attempt = 0
  let ws: WebSocket | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  let beat: ReturnType<typeof setInterval> | undefined
  let heard = 0

  const connect = () => {
    const sock = new WebSocket(url)
    ws = sock
    sock.onopen = () => {
      attempt = 0
      heard = Date.now()
      beat = setInterval(() => {
        if (Date.now() - heard > silentForMs) sock.close()
        else if (sock.readyState === WebSocket.OPEN) sock.send(ping)
      }, pingEveryMs)
      h.onOpen(sock)
    }
    sock.onmessage = (ev: MessageEvent) => {
      heard = Date.now()
      if (typeof ev.data === 'string') h.onMessage(ev.data)
    }
    sock.onclose = (ev: CloseEvent) => {
      clearInterval(beat)
      h.onClose(sock, ev.code)
      if (stopped || ws !== sock) return
      retry = setTimeout(connect, delay(attempt++))
    }
  }
  connect()
  return () => {
    stopped = true
    clearTimeout(retry)
    clearInterval(beat)
    const sock = ws
    ws = null
    if (sock && sock.readyState !== WebSocket.CLOSED) sock.close()
  }
}
