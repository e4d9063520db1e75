// The site as an installed app: the service worker (public/sw.js) that keeps the shell and the last
// bracket, registered once the page has loaded, and whether the browser is online now.
import { useSyncExternalStore } from 'react'

/** Registers /sw.js after the load and an idle moment, so the first paint owes it nothing. */
export function registerShellWorker() {
  if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  if (window.location.pathname.startsWith('/overlay/')) return // a stream's browser source stays as it is
  const register = () => {
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 1))
    idle(() => void navigator.serviceWorker.register('/sw.js').catch(() => undefined))
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

/** Whether the browser says it is online; true where it cannot tell. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine !== false,
    () => true,
  )
}

/**
 * Whether an error is a chunk of the app the browser could not fetch (offline, or a deploy that
 * replaced it), in each browser's words (Chromium, Firefox, Safari) or Vite's preload helper's.
 */
export function isChunkLoadError(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|error loading dynamically imported module/i.test(err.message)
}

/** Calls `fn` each time the browser says it is online again; answers a function that stops it. */
export function whenOnline(fn: () => void): () => void {
  window.addEventListener('online', fn)
  return () => window.removeEventListener('online', fn)
}
