// Starts the real-user page timings (lib/rum.ts) once the site's settings have said how many page
// loads to measure. It renders nothing; the app renders after the first paint, and the timings'
// code loads later still, when the browser is idle.
import { useEffect } from 'react'
import { useAppConfig } from '@/config/app-config'
import { startRum } from '@/lib/rum'

// The path the page loaded at: later moves inside the app are not page loads.
const loadedAt = typeof window === 'undefined' ? '/' : window.location.pathname

export function RumBeacon() {
  const rate = useAppConfig().rum_sample_rate
  useEffect(() => {
    if (rate === undefined) return
    return startRum({ sampleRate: rate, pathname: loadedAt })
  }, [rate])
  return null
}
