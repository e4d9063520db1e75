// One action of a page at a time (an organiser's, a captain's): busy while it runs, the server's
// refusal after, in its own words.
import { useState } from 'react'
import { errorMessage } from '@/lib/api-client'

export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  /** Runs `fn`; true when it succeeded, else the error is kept in the server's words. */
  async function run(fn: () => Promise<unknown>, fallback: string): Promise<boolean> {
    setBusy(true)
    setError('')
    try {
      await fn()
      return true
    } catch (err) {
      setError(errorMessage(err, fallback))
      return false
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, run }
}
