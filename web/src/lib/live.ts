// The one shared websocket of the app (lib/live-socket: reconnect with backoff and jitter, heartbeat),
// wired to the LiveClient protocol: auth first, subscribe with `since`, and a fresh connection
// whenever the session token changes.
import { createContext, createElement, useContext, useEffect, useEffectEvent, useState, type ReactNode } from 'react'
import { api, tokenStore, TOKEN_EVENT } from './api-client'
import { openLiveSocket } from './live-socket'
import { LiveClient, type ClientFrame, type LiveEvent, type LiveListener } from './live-client'

export type { LiveEvent } from './live-client'

export const liveClient = new LiveClient()
const LiveContext = createContext<LiveClient>(liveClient)

export function wsUrl(epoch: number, loc: Location = window.location): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:'
  // A new session (login/logout) needs a new connection whose first frame carries the new
  // token; a different URL makes the shared socket reconnect. The token never goes in the URL.
  return `${proto}//${loc.host}/api/ws${epoch ? `?session=${epoch}` : ''}`
}

/** Each socket's way to send, so the close of a replaced socket is told apart from the current one's. */
const senders = new WeakMap<WebSocket, (frame: ClientFrame) => void>()

export function LiveProvider({
  children,
  enabled = true,
  client = liveClient,
}: {
  children: ReactNode
  enabled?: boolean
  client?: LiveClient
}) {
  const [epoch, setEpoch] = useState(0)
  useEffect(() => {
    const bump = () => {
      client.forget('user')
      setEpoch((e) => e + 1)
    }
    window.addEventListener(TOKEN_EVENT, bump)
    return () => window.removeEventListener(TOKEN_EVENT, bump)
  }, [client])

  useEffect(() => {
    if (!enabled) return
    return openLiveSocket(wsUrl(epoch), {
      onOpen: (ws) => {
        const send = (frame: ClientFrame) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame))
        }
        senders.set(ws, send)
        client.open(send, tokenStore.get())
      },
      onMessage: (data) => client.handleFrame(data),
      onClose: (ws, code) => {
        // After a login the old socket may close after the new one opened: only its own close counts.
        client.close(senders.get(ws) ?? (() => undefined))
        // 1008: the server no longer takes this session (password changed elsewhere, role
        // changed). Asking for the profile lets a 401 sign out through the usual handler, which
        // changes the token and so opens a fresh connection; otherwise the next one re-auths.
        if (code === 1008 && tokenStore.get()) void api.get('/auth/profile').catch(() => undefined)
      },
    })
  }, [enabled, epoch, client])

  return createElement(LiveContext.Provider, { value: client }, children)
}

export function useLiveClient() {
  return useContext(LiveContext)
}

/**
 * Subscribes to a topic while mounted and enabled. `since` is the seq the caller's REST state
 * was read at; pass it so nothing between the read and the subscription is lost.
 */
export function useLiveTopic(
  topic: string,
  handlers: { onEvent?: (ev: LiveEvent) => void; onResync?: () => void; onReconnect?: () => void },
  { enabled = true, since }: { enabled?: boolean; since?: number } = {},
) {
  const client = useLiveClient()
  // The latest handlers and seq, without resubscribing when they change.
  const onEvent = useEffectEvent((ev: LiveEvent) => handlers.onEvent?.(ev))
  const onResync = useEffectEvent(() => handlers.onResync?.())
  const onReconnect = useEffectEvent(() => handlers.onReconnect?.())
  const currentSince = useEffectEvent(() => since)

  useEffect(() => {
    if (!enabled) return
    const listener: LiveListener = {
      onEvent: (ev) => onEvent(ev),
      onResync: () => onResync(),
      onReconnect: () => onReconnect(),
    }
    return client.subscribe(topic, listener, currentSince())
  }, [client, topic, enabled])

  useEffect(() => {
    if (enabled && since !== undefined) client.noteSeq(topic, since)
  }, [client, topic, enabled, since])
}
