// "Forgot password?": the address, then the mailed code with the new password. The first answer is
// the same for every address (only its mailbox learns whether it has an account); the second signs
// this browser in and every other session of the account out.
import { useState, type FormEvent } from 'react'
import { ErrorMessage, SubmitButton, TextField, useFormValues } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import type { AuthResponse } from '@/lib/auth'
import { useConfirmReset, useRequestReset } from '../api/password-reset'

type Props = {
  initialEmail?: string
  onReset: (res: AuthResponse) => void
  onBack: () => void
}

export function ResetForm({ initialEmail = '', onReset, onBack }: Props) {
  const { values, bind } = useFormValues({ email: initialEmail, code: '', password: '', confirmPassword: '' })
  const [sent, setSent] = useState('')
  const [invalid, setInvalid] = useState('')
  const ask = useRequestReset()
  const confirm = useConfirmReset()

  function requestCode(e: FormEvent) {
    e.preventDefault()
    const email = values.email.trim()
    setInvalid(email ? '' : 'Please enter your email')
    if (email) ask.mutate(email, { onSuccess: (res) => setSent(res.message) })
  }

  function reset(e: FormEvent) {
    e.preventDefault()
    confirm.reset()
    const bad = !/^\d{6}$/.test(values.code.trim())
      ? 'Please enter the 6-digit code from the e-mail'
      : [...values.password].length < 8
        ? 'Password must be at least 8 characters'
        : values.password !== values.confirmPassword
          ? 'Passwords do not match'
          : ''
    setInvalid(bad)
    if (!bad) confirm.mutate({ ...values, email: values.email.trim(), code: values.code.trim() }, { onSuccess: onReset })
  }

  if (!sent) {
    return (
      <form className="form" onSubmit={requestCode} noValidate aria-label="Reset your password">
        <p className="muted">Enter your account's e-mail address: we send it a code to choose a new password.</p>
        <TextField id="reset-email" label="Email" type="email" autoComplete="email" required autoFocus {...bind('email')} />
        <ErrorMessage error={invalid || ask.error} />
        <SubmitButton className="btn btn-primary btn-block" pending={ask.isPending} pendingLabel="Sending…">
          Send me a code
        </SubmitButton>
        <button type="button" className="btn btn-ghost btn-block" onClick={onBack}>
          Back to sign in
        </button>
      </form>
    )
  }
  return (
    <form className="form" onSubmit={reset} noValidate aria-label="Choose a new password">
      <Message kind="info">{sent}</Message>
      <TextField id="reset-code" label="Code from the e-mail" inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus {...bind('code')} />
      <TextField id="reset-password" label="New password" type="password" autoComplete="new-password" hint="At least 8 characters. Every device signed in to your account will be signed out." {...bind('password')} />
      <TextField id="reset-confirm" label="Confirm new password" type="password" autoComplete="new-password" {...bind('confirmPassword')} />
      <ErrorMessage error={invalid || confirm.error} />
      <SubmitButton className="btn btn-primary btn-block" pending={confirm.isPending} pendingLabel="Saving…">
        Set new password
      </SubmitButton>
      <button type="button" className="btn btn-ghost btn-block" onClick={() => (setSent(''), confirm.reset(), ask.reset())}>
        Send another code
      </button>
    </form>
  )
}
