import type { ReactNode } from 'react'

/** A small announcement that screen readers read out; timers belong to the caller. */
export function Popup({ children, tone = 'success' }: { children: ReactNode; tone?: 'success' | 'info' | 'error' }) {
  return (
    <div className={`popup popup-${tone}`} role={tone === 'error' ? 'alert' : 'status'} aria-live="polite">
      {children}
    </div>
  )
}

export function Message({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ReactNode }) {
  if (!children) return null
  return (
    <p className={`msg msg-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  )
}
