// Seconds left on a lot, ticking against the server's clock (offset from useAuction). The clock
// ticks while there is a deadline at all, so a new lot never shows a number read long ago; a tick
// that leaves the shown second as it was keeps the old state, so the page renders once a second.
import { useEffect, useState } from 'react'
import { secondsLeft } from './countdown'

const TICK_MS = 250

export function useLotCountdown(endsAt: string | null | undefined, offset: number) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!endsAt) return
    const id = window.setInterval(() => {
      const t = Date.now()
      setNow((prev) => (secondsLeft(endsAt, prev, offset) === secondsLeft(endsAt, t, offset) ? prev : t))
    }, TICK_MS)
    return () => window.clearInterval(id)
  }, [endsAt, offset])
  return secondsLeft(endsAt, now, offset)
}
