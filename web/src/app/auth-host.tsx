// Listens for the seed's window events from anywhere in the app and opens the auth modal.
import { Suspense, useState } from 'react'
import {
  OPEN_AUTH_MODAL,
  OPEN_STATS_UPLOAD,
  useWindowEvent,
  type AuthMode,
  type OpenAuthModalDetail,
} from '@/lib/window-events'
import type { PendingRegistration } from './flows/register-flow'
import { retryableLazy } from './lazy-page'

const AuthFlow = retryableLazy(() => import('./auth-flow'))

const MODES: AuthMode[] = ['login', 'signup', 'register', 'statsUpload']

export function AuthHost() {
  const [state, setState] = useState<{ open: boolean; mode: AuthMode; key: number }>({ open: false, mode: 'login', key: 0 })
  const [pending, setPending] = useState<PendingRegistration>(null)

  const openWith = (mode: AuthMode) => setState((s) => ({ open: true, mode: MODES.includes(mode) ? mode : 'login', key: s.key + 1 }))
  useWindowEvent<OpenAuthModalDetail | null>(OPEN_AUTH_MODAL, (detail) => openWith(detail?.mode ?? 'login'))
  useWindowEvent(OPEN_STATS_UPLOAD, () => openWith('statsUpload'))

  if (state.key === 0) return null
  return (
    <Suspense fallback={null}>
      <AuthFlow
        open={state.open}
        mode={state.mode}
        openKey={state.key}
        onClose={() => {
          setPending(null)
          setState((s) => ({ ...s, open: false }))
        }}
        pending={pending}
        setPending={setPending}
      />
    </Suspense>
  )
}
