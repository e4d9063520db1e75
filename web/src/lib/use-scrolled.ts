import { useEffect, useState } from 'react'
import { SCROLL_THRESHOLD_PX } from '@/config/constants'

/** True once the page is scrolled past the threshold (docs/site.md, "Constants": 100px). */
export function useScrolled(threshold = SCROLL_THRESHOLD_PX) {
  // Not read during the render either: scrollY then lays out the page as it stands (17-19 ms of a
  // tournament page's start in a profile here, in the header's and the back-to-top's first render).
  // A page loaded scrolled down says so one frame later.
  const [scrolled, setScrolled] = useState(false)
  useEffect(() => {
    let frame = 0
    const check = () => {
      frame = 0
      setScrolled(window.scrollY > threshold)
    }
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(check)
    }
    // Checked at the next frame, not now: reading scrollY right after the page's first commit
    // makes the browser lay the whole new page out at once, inside the effects' task (40 ms of
    // the tournament page's start in a profile here); at the frame the layout is done anyway.
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      window.removeEventListener('scroll', onScroll)
      if (frame) window.cancelAnimationFrame(frame)
    }
  }, [threshold])
  return scrolled
}
