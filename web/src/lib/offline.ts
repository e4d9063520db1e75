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
