import { useDeferredValue, useState } from 'react'

const SETTLED = Symbol('settled')

/**
 * A query's data as a page renders it: the first time it arrives, the page it fills renders in
 * the background (React's deferred render, which yields to the browser every few milliseconds)
 * instead of in one long task while the page starts; every later change renders at once and
 * once, as before (a bid is neither held back nor rendered twice). Undefined until that first
 * background render.
 */
export function useFirstDeferred<T>(value: T | undefined): T | undefined {
  const [settled, setSettled] = useState(false)
  // Once settled, the deferred value no longer follows the data, so no change schedules a
  // second render.
  const deferred = useDeferredValue<T | undefined | typeof SETTLED>(settled ? SETTLED : value)
  if (settled) return value
  if (deferred === undefined || deferred === SETTLED) return undefined
  setSettled(true)
  return value
}
