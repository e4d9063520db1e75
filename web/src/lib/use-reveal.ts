// Home sections rise into view once their top passes 1/1.1 of the window height (docs/site.md, "Constants").
import { useEffect } from 'react'
import { REVEAL_RATIO } from '@/config/constants'

export function revealDue(top: number, viewportHeight: number) {
  return top < viewportHeight / REVEAL_RATIO
}

export function useReveal(selector = '.reveal') {
  useEffect(() => {
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    const check = () => {
      const els = document.querySelectorAll<HTMLElement>(`${selector}:not(.revealed)`)
      els.forEach((el) => {
        if (reduce || revealDue(el.getBoundingClientRect().top, window.innerHeight)) el.classList.add('revealed')
      })
    }
    check()
    window.addEventListener('scroll', check, { passive: true })
    window.addEventListener('resize', check)
    const t = window.setInterval(check, 500) // content that loads later (lists) moves sections
    return () => {
      window.removeEventListener('scroll', check)
      window.removeEventListener('resize', check)
      window.clearInterval(t)
    }
  }, [selector])
}
