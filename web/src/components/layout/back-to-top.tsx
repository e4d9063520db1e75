import { useEffect, useRef } from 'react'
import { useScrolled } from '@/lib/use-scrolled'

/** The button's gap to the screen's edge, and the room it needs above the footer (px). */
const GAP = 18
const ROOM = 48 + 2 * GAP + 64 // itself, its gaps, and the header over the top of the screen

/**
 * Appears after 100px of scroll (docs/site.md, "Pages") and returns to #top. It never covers the
 * footer: once the footer comes up the screen the button rides above it, and when the footer leaves
 * it no room (a phone at the bottom of a page) it steps aside.
 */
export function BackToTop() {
  const scrolled = useScrolled()
  const ref = useRef<HTMLAnchorElement>(null)

  useEffect(() => {
    if (!scrolled) return
    let frame = 0
    // Read at the scroll's frame, when the layout is done anyway.
    const place = () => {
      frame = 0
      const el = ref.current
      const footer = document.querySelector('.site-footer')
      if (!el || !footer) return
      const top = footer.getBoundingClientRect().top
      const lift = Math.max(0, window.innerHeight - top)
      el.style.bottom = `${GAP + lift}px`
      el.classList.toggle('is-away', top < ROOM)
    }
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(place)
    }
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    window.addEventListener('resize', onScroll)
    return () => {
      window.removeEventListener('scroll', onScroll)
      window.removeEventListener('resize', onScroll)
      if (frame) window.cancelAnimationFrame(frame)
    }
  }, [scrolled])

  if (!scrolled) return null
  return (
    <a
      ref={ref}
      href="#top"
      className="back-to-top"
      aria-label="Back to top"
      onClick={(e) => {
        e.preventDefault()
        const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
        window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' })
        document.querySelector<HTMLElement>('.skip-link')?.focus({ preventScroll: true })
      }}
    >
      <span aria-hidden="true">↑</span>
    </a>
  )
}
