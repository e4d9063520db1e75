// Cards fade in as they scroll into view (docs/site.md, "Constants": threshold 0.1, margin 50px, stagger 0.03 s).
import { useCallback, useEffect, useRef } from 'react'
import { CARD_OBSERVER } from '@/config/constants'

export function useFadeIn() {
  const observer = useRef<IntersectionObserver | null>(null)
  const pending = useRef(new Set<Element>())

  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver(
      (entries) => {
        let batch = 0
        for (const entry of entries) {
          if (!entry.isIntersecting) continue
          const el = entry.target as HTMLElement
          el.style.transitionDelay = `${(batch++ * CARD_OBSERVER.staggerS).toFixed(2)}s`
          el.classList.add('is-visible')
          io.unobserve(el)
        }
      },
      { threshold: CARD_OBSERVER.threshold, rootMargin: CARD_OBSERVER.rootMargin },
    )
    observer.current = io
    pending.current.forEach((el) => io.observe(el))
    pending.current.clear()
    return () => io.disconnect()
  }, [])

  return useCallback((el: HTMLElement | null) => {
    if (!el || el.classList.contains('is-visible')) return
    if (typeof IntersectionObserver === 'undefined') {
      el.classList.add('is-visible')
      return
    }
    el.classList.add('fade-card')
    if (observer.current) observer.current.observe(el)
    else pending.current.add(el)
  }, [])
}
