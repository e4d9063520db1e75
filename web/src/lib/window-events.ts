// The window events the pages talk through (docs/site.md, "Pages"), under their fixed names.
import { useEffect, useEffectEvent } from 'react'

export type AuthMode = 'login' | 'signup' | 'register' | 'statsUpload'

export const OPEN_STATS_UPLOAD = 'openStatsUpload'
export const OPEN_AUTH_MODAL = 'openAuthModal'
export const AUTH_COMPLETE = 'authComplete'

export type OpenAuthModalDetail = { mode: AuthMode }

export function openAuthModal(mode: AuthMode) {
  window.dispatchEvent(new CustomEvent<OpenAuthModalDetail>(OPEN_AUTH_MODAL, { detail: { mode } }))
}

export function openStatsUpload() {
  window.dispatchEvent(new CustomEvent(OPEN_STATS_UPLOAD))
}

export function emitAuthComplete<U>(user: U) {
  window.dispatchEvent(new CustomEvent(AUTH_COMPLETE, { detail: { user } }))
}

/** Listens to a window event for the component's lifetime; the handler may change freely. */
export function useWindowEvent<D = unknown>(name: string, handler: (detail: D, ev: Event) => void) {
  const onEvent = useEffectEvent((ev: Event) => handler((ev as CustomEvent<D>).detail, ev))
  useEffect(() => {
    const listener = (ev: Event) => onEvent(ev)
    window.addEventListener(name, listener)
    return () => window.removeEventListener(name, listener)
  }, [name])
}
