import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ActionButton, ErrorMessage, SubmitButton } from '@/components/ui/form'
import { Message, Popup } from '@/components/ui/popup'
import { OTP_LENGTH, OTP_POPUP_MS, OTP_RESEND_COOLDOWN_S, POST_VERIFY_LOGIN_DELAY_MS } from '@/config/constants'
import type { AuthResponse } from '@/lib/auth'
import { useCountdown } from '@/lib/use-countdown'
import { useLogin } from '../api/login'
import { tooEarly, useResendOtp } from '../api/resend-otp'
import { useVerifyOtp } from '../api/verify-otp'

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
  /**
   * After a sign-up: the way out for an address that has an account already (the server answers such a
   * sign-up as any other and mails its owner a note instead of a code).
   */
  onSignIn?: () => void
  onForgot?: () => void
}

export function OtpForm({ email, password, onLoggedIn, onLoginFailed, resendCooldown = OTP_RESEND_COOLDOWN_S, onSignIn, onForgot }: Props) {
  const [otp, setOtp] = useState('')
  const [invalid, setInvalid] = useState('')
  const [popup, setPopup] = useState('')
  const verify = useVerifyOtp()
  const resend = useResendOtp()
  const signIn = useLogin()
  const success = verify.isSuccess ? verify.data?.message || 'Email verified successfully! You can now login.' : ''
  // The last of the two writes speaks; a too-early resend is a countdown, not a failure.
  const failed = resend.submittedAt > verify.submittedAt ? (tooEarly(resend.error) ? null : resend.error) : verify.error
  const cooldown = useCountdown(resendCooldown)
  const timers = useRef<number[]>([])

  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), [])
  const later = (fn: () => void, ms: number) => {
    timers.current.push(window.setTimeout(fn, ms))
  }

  // Two seconds after the verified message, sign in automatically (docs/site.md, "The player's path").
  function signInLater() {
    later(() => {
      if (!password) onLoginFailed(LOGIN_AFTER_VERIFY_FAILED)
      else signIn.mutate({ email, password }, { onSuccess: (res) => onLoggedIn(res), onError: () => onLoginFailed(LOGIN_AFTER_VERIFY_FAILED) })
    }, POST_VERIFY_LOGIN_DELAY_MS)
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    const valid = new RegExp(`^\\d{${OTP_LENGTH}}$`).test(otp)
    setInvalid(valid ? '' : 'Please enter a valid 6-digit OTP')
    // The server's own words on a failure (a wrong code's message may say how many tries are left).
    if (valid) verify.mutate({ email, otp, password }, { onSuccess: signInLater })
  }

  function sendAgain() {
    setInvalid('')
    resend.mutate(email, {
      onSuccess: (res) => {
        setPopup(res?.message || 'OTP sent successfully!')
        later(() => setPopup(''), OTP_POPUP_MS)
        cooldown.start(res?.resend_after ?? OTP_RESEND_COOLDOWN_S)
      },
      // The live countdown on the button says what the server's "wait N seconds" says, and stays
      // true as the seconds pass.
      onError: (err) => tooEarly(err) && cooldown.start(err.retryAfter),
    })
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
      <ErrorMessage error={invalid || failed} />
      <Message kind="success">{success}</Message>
      {popup ? <Popup>{popup}</Popup> : null}
      <SubmitButton className="btn btn-primary btn-block" pending={verify.isPending || verify.isSuccess} pendingLabel="Verifying…">
        Verify OTP
      </SubmitButton>
      <ActionButton
        className="btn btn-ghost btn-block"
        onClick={sendAgain}
        disabled={!!success || resend.isPending || cooldown.left > 0}
        aria-describedby="otp-resend-hint"
      >
        {cooldown.left > 0 ? (
          <>
            Resend OTP in <span data-testid="resend-countdown">{cooldown.left}</span> s
          </>
        ) : resend.isPending ? (
          'Sending…'
        ) : (
          'Resend OTP'
        )}
      </ActionButton>
      <p id="otp-resend-hint" className="field-hint otp-hint">
        {cooldown.left > 0
          ? 'No e-mail yet? Check your spam folder. A new code can be sent once a minute.'
          : 'No e-mail? Check your spam folder, or send a new code.'}
      </p>
      {onSignIn && onForgot ? (
        <div className="otp-has-account">
          <p className="field-hint otp-hint">Already have an account with this address? We e-mailed it a note instead of a code.</p>
          <div className="row-actions">
            <button type="button" className="btn btn-link" onClick={onSignIn}>
              Sign in
            </button>
            <button type="button" className="btn btn-link" onClick={onForgot}>
              Reset my password
            </button>
          </div>
        </div>
      ) : null}
    </form>
  )
}
