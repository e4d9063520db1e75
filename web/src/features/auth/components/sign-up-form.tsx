import { useState, type FormEvent } from 'react'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import { OTP_RESEND_COOLDOWN_S } from '@/config/constants'
import { signup } from '../api/auth'

type Props = {
  /** resendIn: the server's seconds until another code may be asked for. */
  onSignedUp: (email: string, password: string, message: string, resendIn: number) => void
}

/** Seed §5: all four fields required; password and confirmation must match. */
export function validateSignup(v: { discordUsername: string; email: string; password: string; confirmPassword: string }) {
  if (!v.discordUsername.trim() || !v.email.trim() || !v.password || !v.confirmPassword) return 'Please fill in all fields'
  if (v.password !== v.confirmPassword) return 'Passwords do not match'
  return ''
}

export function SignUpForm({ onSignedUp }: Props) {
  const [discordUsername, setDiscord] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [confirmPassword, setConfirm] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const invalid = validateSignup({ discordUsername, email, password, confirmPassword })
    setError(invalid)
    if (invalid) return
    setBusy(true)
    try {
      const res = await signup({ email: email.trim(), password, confirmPassword, discordUsername: discordUsername.trim() })
      onSignedUp(
        email.trim(),
        password,
        res?.message || 'Account created! Please check your email for OTP verification.',
        res?.resend_after ?? OTP_RESEND_COOLDOWN_S,
      )
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Sign up">
      <div className="field">
        <label htmlFor="signup-discord">Discord username</label>
        <input
          id="signup-discord"
          autoComplete="username"
          value={discordUsername}
          onChange={(e) => setDiscord(e.target.value)}
          required
          data-autofocus
        />
      </div>
      <div className="field">
        <label htmlFor="signup-email">Email</label>
        <input id="signup-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="signup-password">Password</label>
        <input
          id="signup-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
      </div>
      <div className="field">
        <label htmlFor="signup-confirm">Confirm password</label>
        <input
          id="signup-confirm"
          type="password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={(e) => setConfirm(e.target.value)}
          required
        />
      </div>
      <Message kind="error">{error}</Message>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Creating account…' : 'Sign Up'}
      </button>
    </form>
  )
}
