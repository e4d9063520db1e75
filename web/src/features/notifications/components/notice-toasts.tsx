// A notification that arrives while a page of the site is open and visible: the service worker
// posts it here and the page shows it as a toast for a few seconds instead of a system
// notification.
import { useEffect, useState } from 'react'

type Notice = { title: string; body: string; url: string; tag: string }

export function NoticeToasts() {
  const [notices, setNotices] = useState<Notice[]>([])
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
    const sw = navigator.serviceWorker
    const timers: number[] = []
    const onMessage = (e: MessageEvent) => {
      if (e.data?.type !== 'pitlane:notice') return
      const n = e.data.notice as Notice
      setNotices((list) => [...list.filter((x) => !n.tag || x.tag !== n.tag), n])
      timers.push(window.setTimeout(() => setNotices((list) => list.filter((x) => x !== n)), 8000))
    }
    sw.addEventListener('message', onMessage)
    return () => {
      sw.removeEventListener('message', onMessage)
      timers.forEach((t) => window.clearTimeout(t))
    }
  }, [])
  if (notices.length === 0) return null
  return (
    <div className="notice-toasts" role="status" aria-live="polite">
      {notices.map((n) => (
        <a key={n.tag || n.title} className="notice-toast" href={n.url ? new URL(n.url, window.location.href).pathname : '/'} data-testid="notice-toast">
          <strong>{n.title}</strong>
          <span>{n.body}</span>
        </a>
      ))}
    </div>
  )
}
