import { useEffect } from 'react'
import { useLocation } from '@/lib/router'

/** Scrolls to the URL's anchor (also after lazy content renders), or to the top on a new page. */
export function ScrollManager() {
  const { pathname, hash } = useLocation()
  useEffect(() => {
    if (!hash || hash === '#top') {
      window.scrollTo(0, 0)
      return
    }
    let tries = 0
    let frame = 0
    const find = () => {
      const el = document.getElementById(decodeURIComponent(hash.slice(1)))
      if (el) {
        el.scrollIntoView({ block: 'start' })
        return
      }
      if (tries++ < 60) frame = window.requestAnimationFrame(find)
    }
    find()
    return () => window.cancelAnimationFrame(frame)
  }, [pathname, hash])
  return null
}
