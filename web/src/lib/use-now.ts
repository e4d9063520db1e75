// The time, again every `every` ms: what depends on the clock (a check-in window, a deadline's
// "in 2 h") moves with it.
import { useEffect, useState } from 'react'

export function useNow(every = 30_000) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), every)
    return () => window.clearInterval(t)
  }, [every])
  return now
}
