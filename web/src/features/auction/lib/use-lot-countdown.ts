// Seconds left on a lot, ticking against the server's clock (offset from useAuction). The clock
// ticks while there is a deadline at all, so a new lot never shows a number read long ago.
import { useEffect, useState } from 'react'
import { secondsLeft } from './countdown'

const TICK_MS = 250

export function useLotCountdown(endsAt: string | null | undefined, offset: number) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!endsAt) return
    const id = window.setInterval(() => setNow(Date.now()), TICK_MS)
    return () => window.clearInterval(id)
  }, [endsAt])
  return secondsLeft(endsAt, now, offset)
}
