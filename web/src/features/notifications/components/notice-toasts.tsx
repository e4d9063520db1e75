// A notification that arrives while a page of the site is open and visible: the service worker
// posts it here and the page shows it as a toast for a few seconds instead of a system
// notification (those that came before this chunk loaded included: lib/notice-inbox).
import { useEffect, useState } from 'react'
import { subscribeNotices, type Notice } from '../lib/notice-inbox'

export function NoticeToasts() {
  const [notices, setNotices] = useState<Notice[]>([])
  useEffect(() => {
    const timers: number[] = []
    const stop = subscribeNotices((n) => {
      setNotices((list) => [...list.filter((x) => !n.tag || x.tag !== n.tag), n])
      timers.push(window.setTimeout(() => setNotices((list) => list.filter((x) => x !== n)), 8000))
    })
    return () => {
      stop()
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
