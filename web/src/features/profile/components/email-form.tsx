// Change the account's address: the new one gets a code, which confirms the move; the old one is told.
import { useState, type FormEvent } from 'react'
import { ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import type { User } from '@/lib/auth'
import { useConfirmEmailChange, useRequestEmailChange } from '../api/security'
import { SettingActions, SettingRow } from './setting'
import { SecondFactorFirst, type ConfirmPrompt } from './step-up'

/** stepUp: the session must use its second factor before the address can move. */
export function EmailForm({ user, stepUp }: { user: User; stepUp?: ConfirmPrompt }) {
  const [step, setStep] = useState<'idle' | 'ask' | 'code'>('idle')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState('')
  const ask = useRequestEmailChange()
  const confirm = useConfirmEmailChange()
  const googleOnly = user.has_password === false

  function cancel() {
    setStep('idle')
    setInvalid('')
    ask.reset()
    confirm.reset()
  }

  function send(e: FormEvent) {
    e.preventDefault()
    const to = email.trim()
    setInvalid(to.includes('@') ? '' : 'Please enter the new address')
    if (to.includes('@')) ask.mutate({ email: to, password }, { onSuccess: () => (setStep('code'), setCode('')) })
  }

  function verify(e: FormEvent) {
    e.preventDefault()
    setInvalid(/^\d{6}$/.test(code.trim()) ? '' : 'Please enter the 6-digit code')
    if (/^\d{6}$/.test(code.trim())) confirm.mutate(code.trim(), { onSuccess: () => (setStep('idle'), setPassword('')) })
  }

  if (step === 'idle') {
    return (
      <SettingRow
        label="E-mail"
        value={user.email}
        done={confirm.isSuccess ? confirm.data.message : ''}
        action={
          googleOnly ? (
            <span className="muted setting-note">Set by Google</span>
          ) : (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => (cancel(), setEmail(''), setStep('ask'))}>
              Change e-mail
            </button>
          )
        }
      />
    )
  }
  if (stepUp) return <SecondFactorFirst prompt={stepUp} what="move your account to another address" onCancel={cancel} />
  if (step === 'ask') {
    return (
      <form className="setting form" onSubmit={send} noValidate aria-label="Change e-mail">
        <TextField label="New e-mail address" type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          hint="Needed unless you signed in during the last ten minutes."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorMessage error={invalid || ask.error} fallback="The code could not be sent" />
        <SettingActions pending={ask.isPending} saveLabel="Send a code" onCancel={cancel} />
      </form>
    )
  }
  return (
    <form className="setting form" onSubmit={verify} noValidate aria-label="Confirm new e-mail">
      <Message kind="info">{ask.data?.message ?? 'We sent a code to the new address.'}</Message>
      <TextField label={`Code sent to ${email.trim()}`} inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus value={code} onChange={(e) => setCode(e.target.value)} />
      <ErrorMessage error={invalid || confirm.error} fallback="The address could not be changed" />
      <div className="row-actions">
        <SubmitButton className="btn btn-primary btn-sm" pending={confirm.isPending} pendingLabel="Saving…">
          Confirm new address
        </SubmitButton>
        <button type="button" className="btn btn-ghost btn-sm" onClick={cancel} disabled={confirm.isPending}>
          Cancel
        </button>
      </div>
    </form>
  )
}
