// Notices the service worker posts to an open, visible page (a push that arrived while the visitor
// looks at the site). The toasts that show them load after the first render, in a chunk of their
// own; a message that came before would be lost, so the entry listens from the start and keeps
// what arrives until the toasts subscribe.

export type Notice = { title: string; body: string; url: string; tag: string }
type Listener = (notice: Notice) => void

/** How many early notices are kept for the toasts (the newest). */
const KEPT = 5

export function createNoticeInbox(source: Pick<EventTarget, 'addEventListener'>) {
  let listener: Listener | null = null
  let waiting: Notice[] = []
  source.addEventListener('message', (e) => {
    const data = (e as MessageEvent).data
    if (data?.type !== 'pitlane:notice') return
    if (listener) listener(data.notice as Notice)
    else waiting = [...waiting, data.notice as Notice].slice(-KEPT)
  })
  return {
    /** Hands over what came before, in order, then each notice as it comes; returns the unsubscribe. */
    subscribe(fn: Listener): () => void {
      listener = fn
      const early = waiting
      waiting = []
      early.forEach(fn)
      return () => {
        if (listener === fn) listener = null
      }
    },
  }
}

let inbox: ReturnType<typeof createNoticeInbox> | null = null

/** Starts listening to the service worker (the entry calls it before the app's first render). */
export function listenForNotices() {
  if (inbox || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  inbox = createNoticeInbox(navigator.serviceWorker)
}

/** The toasts' subscription to the page's notices. */
export function subscribeNotices(fn: Listener): () => void {
  listenForNotices()
  return inbox ? inbox.subscribe(fn) : () => undefined
}
