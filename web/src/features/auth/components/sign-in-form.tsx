import { useState, type FormEvent } from 'react'
import { Message } from '@/components/ui/popup'
import { OTP_RESEND_COOLDOWN_S } from '@/config/constants'
import { ApiError, errorMessage } from '@/lib/api-client'
import type { AuthResponse } from '@/lib/auth'
import { login, resendOtp } from '../api/auth'

type Props = {
  onSignedIn: (res: AuthResponse, password: string) => void
  /** The account exists but its e-mail is not verified yet: continue at the OTP view, where a
   *  new code can be asked for in `resendIn` seconds. */
  onNeedsVerification: (email: string, password: string, resendIn: number) => void
  submitLabel?: string
  idPrefix?: string
}

export function SignInForm({ onSignedIn, onNeedsVerification, submitLabel = 'Sign In', idPrefix = 'signin' }: Props) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState('')
  const [unverified, setUnverified] = useState(false)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError('')
    setUnverified(false)
    if (!email.trim() || !password) {
      setError('Please enter your email and password')
      return
    }
    setBusy(true)
    try {
      const res = await login(email.trim(), password)
      onSignedIn(res, password)
    } catch (err) {
      setError(errorMessage(err))
      if (err instanceof ApiError && err.status === 403) setUnverified(true)
    } finally {
      setBusy(false)
    }
  }

  async function verifyNow() {
    setError('')
    let resendIn: number
    try {
      resendIn = (await resendOtp(email.trim()))?.resend_after ?? OTP_RESEND_COOLDOWN_S
    } catch (err) {
      // A code sent less than a minute ago is still valid: go on to the OTP view anyway.
      if (!(err instanceof ApiError && err.status === 429)) {
        setError(errorMessage(err))
        return
      }
      resendIn = err.retryAfter ?? OTP_RESEND_COOLDOWN_S
    }
    onNeedsVerification(email.trim(), password, resendIn)
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Sign in">
      <div className="field">
        <label htmlFor={`${idPrefix}-email`}>Email</label>
        <input
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          data-autofocus
        />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-password`}>Password</label>
        <input
          id={`${idPrefix}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
      </div>
      <Message kind="error">{error}</Message>
      {unverified ? (
        <button type="button" className="btn btn-ghost" onClick={verifyNow}>
          Verify my e-mail
        </button>
      ) : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Signing in…' : submitLabel}
      </button>
    </form>
  )
}
