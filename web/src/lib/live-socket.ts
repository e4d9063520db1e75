// The one shared websocket of the app (react-use-websocket with `share`), wired to the
// LiveClient protocol: auth first, subscribe with `since`, heartbeat, reconnect with backoff
// and jitter, and a fresh connection whenever the session token changes. Loaded lazily by
// LiveProvider (lib/live), so the first page's JavaScript does not wait for it.
import { useEffect, useState } from 'react'
// The package ships CommonJS only; its named export survives every bundler's interop, while
// its `default` does not (Vite 8's rolldown hands back the whole exports object).
import { useWebSocket } from 'react-use-websocket/dist/lib/use-websocket'
import { api, tokenStore, TOKEN_EVENT } from './api-client'
import { backoffDelay, type ClientFrame, type LiveClient } from './live-client'

export function wsUrl(epoch: number, loc: Location = window.location): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:'
  // A new session (login/logout) needs a new connection whose first frame carries the new
  // token; a different URL makes the shared socket reconnect. The token never goes in the URL.
  return `${proto}//${loc.host}/api/ws${epoch ? `?session=${epoch}` : ''}`
}

const PING = JSON.stringify({ type: 'ping' })
/** Each socket's way to send, so the close of a replaced socket is told apart from the current one's. */
const senders = new WeakMap<WebSocket, (frame: ClientFrame) => void>()
const PONG = JSON.stringify({ type: 'pong' })

export default function LiveSocket({ client }: { client: LiveClient }) {
  const [epoch, setEpoch] = useState(0)
  useEffect(() => {
    const bump = () => {
      client.forget('user')
      setEpoch((e) => e + 1)
    }
    window.addEventListener(TOKEN_EVENT, bump)
    return () => window.removeEventListener(TOKEN_EVENT, bump)
  }, [client])

  useWebSocket(wsUrl(epoch), {
    share: true,
    onOpen: (ev) => {
      const ws = ev.target as WebSocket
      const send = (frame: ClientFrame) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame))
      }
      senders.set(ws, send)
      client.open(send, tokenStore.get())
    },
    onMessage: (ev) => {
      if (typeof ev.data === 'string') client.handleFrame(ev.data)
    },
    onClose: (ev) => {
      // After a login the old socket may close after the new one opened: only its own close counts.
      client.close(senders.get(ev.target as WebSocket) ?? (() => undefined))
      // 1008: the server no longer takes this session (password changed elsewhere, role
      // changed). Asking for the profile lets a 401 sign out through the usual handler, which
      // changes the token and so opens a fresh connection; otherwise the next one re-auths.
      if (ev.code === 1008 && tokenStore.get()) void api.get('/auth/profile').catch(() => undefined)
    },
    shouldReconnect: () => true,
    retryOnError: true,
    reconnectAttempts: Number.MAX_SAFE_INTEGER,
    reconnectInterval: (attempt) => backoffDelay(attempt),
    heartbeat: { message: PING, returnMessage: PONG, interval: 25_000, timeout: 60_000 },
  })
  return null
}
