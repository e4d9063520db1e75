// The app's live events: one LiveClient (the protocol: auth first, subscribe with `since`,
// heartbeat, replay) shared through a context. Its socket (react-use-websocket, lib/live-socket)
// loads in a chunk of its own just after the first render: pages subscribe at once and the
// client sends their subscriptions when the socket opens.
import { createContext, createElement, Fragment, lazy, Suspense, useContext, useEffect, useEffectEvent, type ReactNode } from 'react'
import { LiveClient, resyncDelay, type CheersFrame, type LiveEvent, type LiveListener } from './live-client'

export type { CheersFrame, LiveEvent } from './live-client'

// A resync's reads wait a random moment (0-2 s, or the server's window under pressure): after a
// Redis restart every page of an instance is told to resync at once.
export const liveClient = new LiveClient({ resyncDelay: (hint) => resyncDelay(hint) })
const LiveContext = createContext<LiveClient>(liveClient)
const LiveSocket = lazy(() => import('./live-socket'))

export function LiveProvider({
  children,
  enabled = true,
  client = liveClient,
}: {
  children: ReactNode
  enabled?: boolean
  client?: LiveClient
}) {
  // The socket is a sibling under a Suspense of its own: the page never waits for its chunk.
  const socket = enabled ? createElement(Suspense, { fallback: null }, createElement(LiveSocket, { client })) : null
  return createElement(LiveContext.Provider, { value: client }, createElement(Fragment, null, children, socket))
}

export function useLiveClient() {
  return useContext(LiveContext)
}

/**
 * Subscribes to a topic while mounted and enabled. `since` is the seq the caller's REST state
 * was read at; pass it so nothing between the read and the subscription is lost. `page` is the API
 * path of that state (`/api/...`): after a mass resync the hub sends it along, to `onPage`, in
 * place of a read.
 */
export function useLiveTopic(
  topic: string,
  handlers: {
    onEvent?: (ev: LiveEvent) => void
    onResync?: () => void
    onReconnect?: () => void
    onPage?: (page: unknown) => void
    onCheers?: (frame: CheersFrame) => void
  },
  { enabled = true, since, page }: { enabled?: boolean; since?: number; page?: string } = {},
) {
  const client = useLiveClient()
  // The latest handlers and seq, without resubscribing when they change.
  const onEvent = useEffectEvent((ev: LiveEvent) => handlers.onEvent?.(ev))
  const onResync = useEffectEvent(() => handlers.onResync?.())
  const onReconnect = useEffectEvent(() => handlers.onReconnect?.())
  const onPage = useEffectEvent((p: unknown) => handlers.onPage?.(p))
  const onCheers = useEffectEvent((f: CheersFrame) => handlers.onCheers?.(f))
  const currentSince = useEffectEvent(() => since)

  useEffect(() => {
    if (!enabled) return
    const listener: LiveListener = {
      onEvent: (ev) => onEvent(ev),
      onResync: () => onResync(),
      onReconnect: () => onReconnect(),
      onCheers: (f) => onCheers(f),
      ...(page ? { page, onPage: (p: unknown) => onPage(p) } : {}),
    }
    return client.subscribe(topic, listener, currentSince())
  }, [client, topic, enabled, page])

  useEffect(() => {
    if (enabled && since !== undefined) client.noteSeq(topic, since)
  }, [client, topic, enabled, since])
}
