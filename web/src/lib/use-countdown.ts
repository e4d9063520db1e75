// Seconds left until a deadline, ticking live. The deadline is a wall-clock time, so a tab that
// was in the background (timers throttled) shows the right number when it comes back.
import { useCallback, useEffect, useRef, useState } from 'react'

const TICK_MS = 250

/** `initialSeconds` starts a countdown on mount; `start(s)` (re)starts it from an event. */
export function useCountdown(initialSeconds = 0) {
  const [left, setLeft] = useState(Math.max(0, Math.ceil(initialSeconds)))
  const deadline = useRef<number | null>(null)

  useEffect(() => {
    if (deadline.current === null && initialSeconds > 0) deadline.current = Date.now() + initialSeconds * 1000
  }, [initialSeconds])

  const start = useCallback((seconds: number) => {
    const s = Math.max(0, Math.ceil(seconds))
    deadline.current = Date.now() + s * 1000
    setLeft(s)
  }, [])

  const running = left > 0
  useEffect(() => {
    if (!running) return
    const id = window.setInterval(() => {
      if (deadline.current === null) return
      setLeft(Math.max(0, Math.ceil((deadline.current - Date.now()) / 1000)))
    }, TICK_MS)
    return () => window.clearInterval(id)
  }, [running])

  return { left, start }
}
