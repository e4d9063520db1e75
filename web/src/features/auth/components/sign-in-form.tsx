import { useState, type FormEvent } from 'react'
import { ErrorMessage, SubmitButton, TextField, useFormValues } from '@/components/ui/form'
import { OTP_RESEND_COOLDOWN_S } from '@/config/constants'
import { ApiError } from '@/lib/api-client'
import type { AuthResponse } from '@/lib/auth'
import { useLogin } from '../api/login'
import { tooEarly, useResendOtp } from '../api/resend-otp'

type Props = {
  onSignedIn: (res: AuthResponse, password: string) => void
  /** The account exists but its e-mail is not verified yet: continue at the OTP view, where a
   *  new code can be asked for in `resendIn` seconds. */
  onNeedsVerification: (email: string, password: string, resendIn: number) => void
  /** "Forgot password?", with the address typed so far. */
  onForgot?: (email: string) => void
  submitLabel?: string
  idPrefix?: string
}

export function SignInForm({ onSignedIn, onNeedsVerification, onForgot, submitLabel = 'Sign In', idPrefix = 'signin' }: Props) {
  const { values, bind } = useFormValues({ email: '', password: '' })
  const { email, password } = values
  const [invalid, setInvalid] = useState('')
  const signIn = useLogin()
  const resend = useResendOtp()
  const unverified = signIn.error instanceof ApiError && signIn.error.status === 403
  // Once "Verify my e-mail" is pressed, its failure replaces the sign-in's (a code sent less than a
  // minute ago is still valid: that refusal goes on to the OTP view).
  const error = invalid || (resend.isIdle ? signIn.error : tooEarly(resend.error) ? null : resend.error)

  function submit(e: FormEvent) {
    e.preventDefault()
    resend.reset()
    const missing = !email.trim() || !password
    setInvalid(missing ? 'Please enter your email and password' : '')
    if (missing) signIn.reset()
    else signIn.mutate({ email: email.trim(), password }, { onSuccess: (res) => onSignedIn(res, password) })
  }

  function verifyNow() {
    const to = email.trim()
    resend.mutate(to, {
      onSuccess: (res) => onNeedsVerification(to, password, res?.resend_after ?? OTP_RESEND_COOLDOWN_S),
      onError: (err) => {
        if (err instanceof ApiError && err.status === 429) onNeedsVerification(to, password, err.retryAfter ?? OTP_RESEND_COOLDOWN_S)
      },
    })
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Sign in">
      <TextField id={`${idPrefix}-email`} label="Email" type="email" autoComplete="email" required data-autofocus {...bind('email')} />
      <TextField id={`${idPrefix}-password`} label="Password" type="password" autoComplete="current-password" required {...bind('password')} />
      <ErrorMessage error={error} />
      {unverified ? (
        <button type="button" className="btn btn-ghost" onClick={verifyNow}>
          Verify my e-mail
        </button>
      ) : null}
      <SubmitButton className="btn btn-primary btn-block" pending={signIn.isPending} pendingLabel="Signing in…">
        {submitLabel}
      </SubmitButton>
      {onForgot ? (
        <button type="button" className="btn btn-link forgot-link" onClick={() => onForgot(email.trim())}>
          Forgot password?
        </button>
      ) : null}
    </form>
  )
}
