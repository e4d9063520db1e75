import { useEffect, useRef, useState } from 'react'

/**
 * A long list rendered a window at a time: the first `step` rows, then `step` more each time the
 * sentinel (an element after the rows) comes within `margin` of the viewport, so thousands of
 * cards cost the page only those the visitor scrolls to. `reset` starts over (a new search or
 * sort); `atLeast` widens the window to a row that must be shown.
 */
export function useGrowingWindow(total: number, { step = 60, margin = '800px', reset = '', atLeast = 0 } = {}) {
  const [size, setSize] = useState(step)
  const [seen, setSeen] = useState(reset)
  if (seen !== reset) {
    setSeen(reset)
    setSize(step)
  }
  const shown = Math.min(total, Math.max(size, atLeast))
  const sentinel = useRef<HTMLDivElement | null>(null)
  const more = shown < total
  useEffect(() => {
    const el = sentinel.current
    if (!more || !el || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSize((s) => s + step)
    }, { rootMargin: margin })
    io.observe(el)
    return () => io.disconnect()
  }, [more, step, margin, shown])
  return { shown, more, sentinel, showMore: () => setSize((s) => Math.max(s, shown) + step) }
}
