// An organiser's second step: the session acts as an organiser once it has used a code from the
// authenticator app, a recovery code or a passkey. Shown after the sign-in, and by the organisers'
// pages to a session that has not used it yet.
import { useId, useState, type FormEvent } from 'react'
import { ActionButton, ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import type { Security, User } from '@/lib/auth'
import { passkeyFailure, passkeysSupported } from '@/lib/webauthn'
import { useVerifyCode, useVerifyPasskey } from '../api/second-factor'

type Props = {
  security: Security
  onVerified: (user: User) => void
  /** Carry on as a player (the sign-in stands; the organiser's powers wait). */
  onSkip?: () => void
  /** What the confirmation is for, when not the organiser's powers (a change to the account). */
  intro?: string
}

export function SecondFactorPrompt({ security, onVerified, onSkip, intro }: Props) {
  const codeId = useId()
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState('')
  const byCode = useVerifyCode()
  const byPasskey = useVerifyPasskey()
  const enrolled = security.totp || security.passkeys > 0

  function submit(e: FormEvent) {
    e.preventDefault()
    byPasskey.reset()
    const value = code.trim()
    setInvalid(value ? '' : 'Enter the code from your authenticator app, or a recovery code')
    if (value) byCode.mutate(value, { onSuccess: (res) => onVerified(res.user) })
  }

  function passkey() {
    byCode.reset()
    setInvalid('')
    byPasskey.mutate(undefined, {
      onSuccess: (res) => (res ? onVerified(res.user) : setInvalid('The passkey prompt was closed.')),
      onError: (err) => setInvalid(passkeyFailure(err)),
    })
  }

  if (!enrolled) {
    return (
      <div className="second-factor" role="region" aria-label="Two-step sign-in">
        <p>
          This league asks organisers to use two-step sign-in. Set up an authenticator app or a passkey in your profile
          (<strong>Sign-in &amp; security</strong>): this session then acts as an organiser.
        </p>
        {onSkip ? (
          <button type="button" className="btn btn-ghost" onClick={onSkip}>
            Continue as a player
          </button>
        ) : null}
      </div>
    )
  }
  return (
    <div className="second-factor" role="region" aria-label="Two-step sign-in">
      <p>{intro ?? 'You are signed in. To act as an organiser, confirm it is you with your second factor.'}</p>
      {security.passkeys > 0 && passkeysSupported() ? (
        <ActionButton className="btn btn-primary btn-block" pending={byPasskey.isPending} pendingLabel="Waiting for your passkey…" onClick={passkey}>
          Use a passkey
        </ActionButton>
      ) : null}
      {security.totp || security.recovery_codes_left > 0 ? (
        <form className="form" onSubmit={submit} noValidate aria-label="Authenticator code">
          <TextField
            id={codeId}
            label="Code from your authenticator app"
            hint="Or one of your recovery codes."
            inputMode="text"
            autoComplete="one-time-code"
            maxLength={16}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <SubmitButton className="btn btn-primary btn-block" pending={byCode.isPending} pendingLabel="Checking…">
            Confirm
          </SubmitButton>
        </form>
      ) : null}
      <ErrorMessage error={invalid || byCode.error || (byPasskey.error && !passkeyFailure(byPasskey.error) ? byPasskey.error : null)} />
      {onSkip ? (
        <button type="button" className="btn btn-ghost btn-block" onClick={onSkip}>
          Not now: continue as a player
        </button>
      ) : null}
    </div>
  )
}
