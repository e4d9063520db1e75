// The auth modal (docs/site.md, "Pages"): Sign In / Sign Up tabs, OTP view, Discord step, and the stats
// and profile views that the app layer plugs in (features do not import one another).
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Modal } from '@/components/ui/modal'
import { Message } from '@/components/ui/popup'
import { Spinner } from '@/components/ui/spinner'
import { MODAL_TAB_SWITCH_MS } from '@/config/constants'
import { tokenStore } from '@/lib/api-client'
import { useSession, type AuthResponse, type User } from '@/lib/auth'
import { emitAuthComplete, type AuthMode } from '@/lib/window-events'
import { currentStep, resolveView, viewAfterSignIn, type AuthView } from '../lib/resume'
import { DiscordStep } from './discord-step'
import { GoogleButton } from './google-button'
import { OtpForm } from './otp-form'
import { ProgressSteps } from './progress-steps'
import { ResetForm } from './reset-form'
import { SecondFactorPrompt } from './second-factor-prompt'
import { SignInForm } from './sign-in-form'
import { SignUpForm } from './sign-up-form'

export type StatsSlotContext = {
  user: User | null
  view: 'stats' | 'registered'
  /** Signed in from register mode: register at once if the player's stats exist (docs/site.md, "The player's path"). */
  autoRegister: boolean
  /** The modal was opened to register (REGISTER buttons): a player without stats is told why the upload comes first. */
  registerIntent: boolean
  /** Ask the visitor to sign in (or sign up) first; the modal comes back to the stats view. */
  requireAuth: () => void
  close: () => void
  /** While the stats view reviews a reading, the progress shows the stats step as current (null: let go). */
  holdStep: (step: 3 | null) => void
}

export type ProfileSlotContext = { user: User; showStats: () => void; close: () => void }

type Props = {
  open: boolean
  mode: AuthMode
  /** Bumped on every open request, so re-opening resets the view. */
  openKey: number
  onClose: () => void
  googleClientId: string
  /** A registration is waiting for the sign-in to finish (docs/site.md, "The player's path"). */
  pendingRegister?: boolean
  /** The season takes registrations now (false: the path ends at the stats; undefined: not known yet). */
  registrationOpen?: boolean
  renderStats: (ctx: StatsSlotContext) => ReactNode
  renderProfile: (ctx: ProfileSlotContext) => ReactNode
}

const TITLES: Record<AuthView, string> = {
  signin: 'Sign In',
  signup: 'Sign Up',
  otp: 'Verify your e-mail',
  discord: 'Link your Discord',
  stats: 'Upload your SK stats',
  registered: 'Tournament registration',
  profile: 'Your profile',
  reset: 'Reset your password',
  'second-factor': 'Two-step sign-in',
}

const tokenOf = () => tokenStore.get() ?? ''

type Notice = { kind: 'success' | 'error' | 'info'; text: string } | null

export function AuthModal({ open, mode, openKey, onClose, googleClientId, pendingRegister = false, registrationOpen, renderStats, renderProfile }: Props) {
  const { user, isLoading, setSession, refresh } = useSession()
  const [pinned, setView] = useState<AuthView | null>(null)
  const [leaving, setLeaving] = useState(false)
  const [notice, setNotice] = useState<Notice>(null)
  const [creds, setCreds] = useState<{ email: string; password: string | null; fromSignup: boolean; resendIn: number } | null>(null)
  const [flowMode, setFlowMode] = useState<AuthMode>(mode)
  const [autoRegister, setAutoRegister] = useState(false)
  const [resetEmail, setResetEmail] = useState('')
  const [after2fa, setAfter2fa] = useState<AuthView | null>(null)
  // The stats view's review: the step is not done while the player checks it, whatever was kept.
  const [heldStep, setHeldStep] = useState<3 | null>(null)
  const tabTimer = useRef<number | undefined>(undefined)

  // Every open request starts from where the player stands (docs/site.md, "The player's path").
  const [seenKey, setSeenKey] = useState<number | null>(null)
  if (open && seenKey !== openKey) {
    setSeenKey(openKey)
    setView(null)
    setNotice(null)
    setLeaving(false)
    setFlowMode(mode)
    setAutoRegister(false)
  }
  // Once resolved, the view is pinned: later profile refreshes do not move the player.
  const view: AuthView | null = pinned ?? (isLoading ? null : resolveView(flowMode, user))
  if (open && pinned === null && view !== null) setView(view)

  useEffect(() => () => window.clearTimeout(tabTimer.current), [])

  function switchTab(next: 'signin' | 'signup') {
    if (next === view || leaving) return
    setLeaving(true)
    setNotice(null)
    tabTimer.current = window.setTimeout(() => {
      setView(next)
      setLeaving(false)
    }, MODAL_TAB_SWITCH_MS)
  }

  function signedIn(res: AuthResponse, opts: { google?: boolean; fromSignup?: boolean } = {}) {
    setSession(res.token, res.user)
    emitAuthComplete(res.user)
    const effectiveMode: AuthMode = opts.fromSignup && flowMode === 'login' ? 'register' : flowMode
    const next = viewAfterSignIn(effectiveMode, res.user, !!opts.google, pendingRegister)
    if (effectiveMode === 'register' && !opts.fromSignup) setAutoRegister(true)
    if (opts.google) setNotice({ kind: 'success', text: res.message || 'Google login successful!' })
    else setNotice(null)
    // An organiser whose powers wait for the second factor is asked for it first.
    if (res.user.security?.organiser_locked) {
      setAfter2fa(next)
      setView('second-factor')
      return
    }
    if (next === null) onClose()
    else setView(next)
  }

  function leaveSecondFactor() {
    setNotice(null)
    if (after2fa === null) onClose()
    else setView(after2fa)
  }

  const step = heldStep !== null && view === 'stats' ? Math.min(heldStep, currentStep(user)) : currentStep(user)
  const showProgress =
    view !== null && view !== 'profile' && view !== 'reset' && view !== 'second-factor' && !(view === 'signin' && flowMode === 'login')
  const isTabView = view === 'signin' || view === 'signup'
  const title = view ? TITLES[view] : 'Loading'

  let body: ReactNode = <Spinner />
  switch (view) {
    case 'signin':
      body = (
        <SignInForm
          onSignedIn={(res) => signedIn(res)}
          onNeedsVerification={(email, password, resendIn) => {
            setCreds({ email, password, fromSignup: false, resendIn })
            setNotice({ kind: 'info', text: 'Enter the code from your e-mail to verify your account.' })
            setView('otp')
          }}
          onForgot={(email) => {
            setResetEmail(email)
            setNotice(null)
            setView('reset')
          }}
        />
      )
      break
    case 'reset':
      body = (
        <ResetForm
          initialEmail={resetEmail}
          onReset={(res) => {
            signedIn(res)
            if (!res.user.security?.organiser_locked) setNotice({ kind: 'success', text: res.message || 'Your password has been reset.' })
          }}
          onBack={() => setView('signin')}
        />
      )
      break
    case 'second-factor':
      body = user?.security ? (
        <SecondFactorPrompt
          security={user.security}
          onVerified={(u) => {
            setSession(tokenOf(), u)
            leaveSecondFactor()
          }}
          onSkip={leaveSecondFactor}
        />
      ) : null
      break
    case 'signup':
      body = (
        <SignUpForm
          onSignedUp={(email, password, message, resendIn) => {
            // Sign-up has just sent a code: the next one can be asked for in a minute.
            setCreds({ email, password, fromSignup: true, resendIn })
            setNotice({ kind: 'success', text: message })
            setView('otp')
          }}
        />
      )
      break
    case 'otp':
      body = creds ? (
        <OtpForm
          email={creds.email}
          password={creds.password}
          resendCooldown={creds.resendIn}
          onLoggedIn={(res) => signedIn(res, { fromSignup: true })}
          onLoginFailed={(text) => {
            setNotice({ kind: 'error', text })
            setView('signin')
          }}
          onSignIn={
            creds.fromSignup
              ? () => {
                  setNotice(null)
                  setView('signin')
                }
              : undefined
          }
          onForgot={
            creds.fromSignup
              ? () => {
                  setResetEmail(creds.email)
                  setNotice(null)
                  setView('reset')
                }
              : undefined
          }
        />
      ) : null
      break
    case 'discord':
      body = (
        <DiscordStep
          initial={user?.discord_username ?? ''}
          onDone={async () => {
            setNotice(null)
            await refresh().catch(() => null)
            setView('stats')
          }}
        />
      )
      break
    case 'stats':
    case 'registered':
      body = renderStats({
        user,
        view,
        autoRegister,
        registerIntent: flowMode === 'register' || flowMode === 'signup',
        requireAuth: () => {
          setFlowMode('register')
          setNotice({ kind: 'info', text: 'Sign in or create an account to save your stats and register.' })
          setView('signin')
        },
        close: onClose,
        holdStep: setHeldStep,
      })
      break
    case 'profile':
      body = user ? renderProfile({ user, showStats: () => setView('stats'), close: onClose }) : null
      break
    default:
      break
  }

  return (
    <Modal open={open} onClose={onClose} title={title} className="auth-modal">
      {showProgress ? <ProgressSteps step={step} registerClosed={registrationOpen === false} /> : null}
      {isTabView ? (
        <div className="auth-tabs" role="tablist" aria-label="Account">
          {(['signin', 'signup'] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`auth-tab-${t}`}
              aria-selected={view === t}
              aria-controls="auth-panel"
              className={`auth-tab ${view === t ? 'active' : ''}`}
              onClick={() => switchTab(t)}
            >
              {t === 'signin' ? 'Sign In' : 'Sign Up'}
            </button>
          ))}
        </div>
      ) : null}
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <div
        id="auth-panel"
        role={isTabView ? 'tabpanel' : undefined}
        aria-labelledby={isTabView ? `auth-tab-${view}` : undefined}
        className={`auth-panel ${leaving ? 'is-leaving' : ''}`}
        data-view={view ?? 'loading'}
      >
        {body}
        {isTabView ? <GoogleButton clientId={googleClientId} onSignedIn={(res) => signedIn(res, { google: true })} /> : null}
      </div>
    </Modal>
  )
}
