// "Sign in with Google" through Google Identity Services: Google hands the page an ID token
// (`credential`), which goes to the server to verify (docs/api.md, "Accounts"). Shown only when configured.
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { ErrorMessage } from '@/components/ui/form'
import type { AuthResponse } from '@/lib/auth'
import { useGoogleLogin } from '../api/google-login'

const GIS_SRC = 'https://accounts.google.com/gsi/client'

type GoogleId = {
  initialize: (cfg: { client_id: string; callback: (r: { credential?: string }) => void; ux_mode?: string }) => void
  renderButton: (el: HTMLElement, opts: Record<string, unknown>) => void
}
declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleId } }
  }
}

let loader: Promise<void> | null = null
function loadGis(): Promise<void> {
  if (window.google?.accounts?.id) return Promise.resolve()
  loader ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script')
    s.src = GIS_SRC
    s.async = true
    s.defer = true
    s.onload = () => resolve()
    s.onerror = () => {
      loader = null
      reject(new Error('gis'))
    }
    document.head.appendChild(s)
  })
  return loader
}

export function GoogleButton({ clientId, onSignedIn }: { clientId: string; onSignedIn: (res: AuthResponse) => void }) {
  const ref = useRef<HTMLDivElement>(null)
  // Google's own failures (its script, its answer); the server's refusal is the write's error.
  const [error, setError] = useState('')
  const google = useGoogleLogin()
  const signIn = useEffectEvent((credential: string) => {
    setError('')
    google.mutate(credential, { onSuccess: (res: AuthResponse) => onSignedIn(res) })
  })
  const fail = useEffectEvent((text: string) => {
    google.reset()
    setError(text)
  })

  useEffect(() => {
    if (!clientId) return
    let alive = true
    loadGis()
      .then(() => {
        const id = window.google?.accounts?.id
        if (!alive || !id || !ref.current) return
        id.initialize({
          client_id: clientId,
          callback: (r) => {
            if (!r?.credential) {
              fail('Failed to get user information from Google')
              return
            }
            signIn(r.credential)
          },
        })
        id.renderButton(ref.current, { theme: 'filled_black', size: 'large', text: 'continue_with', shape: 'pill', width: 280 })
      })
      .catch(() => alive && fail('Google authentication failed'))
    return () => {
      alive = false
    }
  }, [clientId])

  if (!clientId) return null
  return (
    <div className="google-signin">
      <div className="divider" role="separator">
        <span>or</span>
      </div>
      <div ref={ref} className="google-btn" />
      <ErrorMessage error={error || google.error} fallback="Google login failed" />
    </div>
  )
}
