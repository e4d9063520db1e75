import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Message, Popup } from '@/components/ui/popup'
import { OTP_LENGTH, OTP_POPUP_MS, OTP_RESEND_COOLDOWN_S, POST_VERIFY_LOGIN_DELAY_MS } from '@/config/constants'
import { ApiError, errorMessage } from '@/lib/api-client'
import type { AuthResponse } from '@/lib/auth'
import { useCountdown } from '@/lib/use-countdown'
import { login, resendOtp, verifyOtp } from '../api/auth'

export const LOGIN_AFTER_VERIFY_FAILED = 'Email verified but login failed. Please login manually.'

/** Digits only, at most six (docs/site.md, "Forms and their checks"). */
export function sanitizeOtp(value: string) {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH)
}

type Props = {
  email: string
  password: string | null
  onLoggedIn: (res: AuthResponse) => void
  onLoginFailed: (message: string) => void
  /** Seconds until the server sends another code: a code was just sent (sign-up, resend). */
  resendCooldown?: number
}

export function OtpForm({ email, password, onLoggedIn, onLoginFailed, resendCooldown = OTP_RESEND_COOLDOWN_S }: Props) {
  const [otp, setOtp] = useState('')
  const [error, setError] = useState('')
  const [success, setSuccess] = useState('')
  const [popup, setPopup] = useState('')
  const [busy, setBusy] = useState(false)
  const [resending, setResending] = useState(false)
  const cooldown = useCountdown(resendCooldown)
  const timers = useRef<number[]>([])

  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), [])
  const later = (fn: () => void, ms: number) => {
    timers.current.push(window.setTimeout(fn, ms))
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError('')
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(otp)) {
      setError('Please enter a valid 6-digit OTP')
      return
    }
    setBusy(true)
    try {
      const res = await verifyOtp(email, otp, password)
      setSuccess(res?.message || 'Email verified successfully! You can now login.')
      // Seed §4: two seconds after the verified message, sign in automatically.
      later(async () => {
        if (!password) {
          onLoginFailed(LOGIN_AFTER_VERIFY_FAILED)
          return
        }
        try {
          onLoggedIn(await login(email, password))
        } catch {
          onLoginFailed(LOGIN_AFTER_VERIFY_FAILED)
        }
      }, POST_VERIFY_LOGIN_DELAY_MS)
    } catch (err) {
      // The server's own words (a wrong code's message may say how many tries are left).
      setError(errorMessage(err))
      setBusy(false)
    }
  }

  async function resend() {
    setError('')
    setResending(true)
    try {
      const res = await resendOtp(email)
      setPopup(res?.message || 'OTP sent successfully!')
      later(() => setPopup(''), OTP_POPUP_MS)
      cooldown.start(res?.resend_after ?? OTP_RESEND_COOLDOWN_S)
    } catch (err) {
      if (err instanceof ApiError && err.status === 429 && err.retryAfter) {
        // The live countdown on the button says what the server's "wait N seconds" says, and
        // stays true as the seconds pass.
        cooldown.start(err.retryAfter)
      } else {
        setError(errorMessage(err))
      }
    } finally {
      setResending(false)
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Verify e-mail">
      <p className="muted">
        We sent a {OTP_LENGTH}-digit code to <strong>{email}</strong>.
      </p>
      <div className="field">
        <label htmlFor="otp-code">Verification code (OTP)</label>
        <input
          id="otp-code"
          className="otp-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          maxLength={OTP_LENGTH}
          value={otp}
          onChange={(e) => setOtp(sanitizeOtp(e.target.value))}
          data-autofocus
        />
      </div>
      <Message kind="error">{error}</Message>
      <Message kind="success">{success}</Message>
      {popup ? <Popup>{popup}</Popup> : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Verifying…' : 'Verify OTP'}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-block"
        onClick={resend}
        disabled={!!success || resending || cooldown.left > 0}
        aria-describedby="otp-resend-hint"
      >
        {cooldown.left > 0 ? (
          <>
            Resend OTP in <span data-testid="resend-countdown">{cooldown.left}</span> s
          </>
        ) : resending ? (
          'Sending…'
        ) : (
          'Resend OTP'
        )}
      </button>
      <p id="otp-resend-hint" className="field-hint otp-hint">
        {cooldown.left > 0
          ? 'No e-mail yet? Check your spam folder. A new code can be sent once a minute.'
          : 'No e-mail? Check your spam folder, or send a new code.'}
      </p>
    </form>
  )
}
