// Home sections rise into view once their top passes 1/1.1 of the window height (docs/site.md, "Constants").
import { useEffect } from 'react'
import { REVEAL_RATIO } from '@/config/constants'

/**
 * The browser says when a section comes that far into view (an IntersectionObserver whose root
 * ends 1/1.1 of the way down the window): nothing is measured in the page's own tasks, so the
 * sections never make the browser lay the page out early, and a section moved by content that
 * loads later is seen where it ends up.
 */
export function useReveal(selector = '.reveal') {
  useEffect(() => {
    const els = document.querySelectorAll<HTMLElement>(`${selector}:not(.revealed)`)
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    if (reduce || typeof IntersectionObserver === 'undefined') {
      els.forEach((el) => el.classList.add('revealed'))
      return
    }
    const bottom = `-${((1 - 1 / REVEAL_RATIO) * 100).toFixed(2)}%`
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (!e.isIntersecting) continue
          e.target.classList.add('revealed')
          io.unobserve(e.target)
        }
      },
      // The root reaches far above the window: a section scrolled past in one jump counts too.
      { rootMargin: `100000px 0px ${bottom} 0px` },
    )
    els.forEach((el) => io.observe(el))
    return () => io.disconnect()
  }, [selector])
}
