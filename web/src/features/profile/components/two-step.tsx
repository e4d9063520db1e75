// Two-step sign-in for organisers: an authenticator app (TOTP, with recovery codes) and passkeys.
// Changing them needs proof it is the owner: the password while the account has no second factor,
// else a session that has used it (the app plugs in the prompt for that).
import { useState, type FormEvent, type ReactNode } from 'react'
import { ActionButton, ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import type { User } from '@/lib/auth'
import { dayTime } from '@/lib/time'
import { passkeyFailure, passkeysSupported } from '@/lib/webauthn'
import {
  useAddPasskey,
  useBeginTOTP,
  useConfirmTOTP,
  useNewRecoveryCodes,
  usePasskeys,
  useRemovePasskey,
  useRemoveTOTP,
} from '../api/security'

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery-codes" role="region" aria-label="Recovery codes">
      <Message kind="success">
        Keep these recovery codes somewhere safe: each one works once, in place of a code from your app, if you lose your phone. They are not shown again.
      </Message>
      <ol className="code-grid">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-primary btn-sm" onClick={onDone}>
        I have saved them
      </button>
    </div>
  )
}

function TOTPSetup({ needsPassword, onCodes }: { needsPassword: boolean; onCodes: (codes: string[]) => void }) {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const begin = useBeginTOTP()
  const confirm = useConfirmTOTP()
  const [open, setOpen] = useState(false)

  function start(e: FormEvent) {
    e.preventDefault()
    begin.mutate(password)
  }
  function finish(e: FormEvent) {
    e.preventDefault()
    confirm.mutate(code.trim(), {
      onSuccess: (res) => {
        setOpen(false)
        begin.reset()
        if (res.recovery_codes.length > 0) onCodes(res.recovery_codes)
      },
    })
  }
  if (!open) {
    return (
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOpen(true)}>
        Set up an authenticator app
      </button>
    )
  }
  if (!begin.data) {
    return (
      <form className="form" onSubmit={start} noValidate aria-label="Set up an authenticator app">
        {needsPassword ? (
          <TextField label="Your password" type="password" autoComplete="current-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
        ) : null}
        <ErrorMessage error={begin.error} fallback="The app could not be set up" />
        <div className="row-actions">
          <SubmitButton className="btn btn-primary btn-sm" pending={begin.isPending} pendingLabel="Starting…">
            Continue
          </SubmitButton>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => (setOpen(false), begin.reset())}>
            Cancel
          </button>
        </div>
      </form>
    )
  }
  return (
    <form className="form totp-setup" onSubmit={finish} noValidate aria-label="Confirm the authenticator app">
      <p>Scan this code with your authenticator app (Google Authenticator, 1Password, Authy…), then enter the six digits it shows.</p>
      <img className="totp-qr" src={begin.data.qr} alt="QR code of your authenticator secret" width={180} height={180} />
      <p className="muted">
        Or type the key: <code className="totp-secret">{begin.data.secret}</code>
      </p>
      <TextField label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
      <ErrorMessage error={confirm.error} fallback="That code did not work" />
      <div className="row-actions">
        <SubmitButton className="btn btn-primary btn-sm" pending={confirm.isPending} pendingLabel="Checking…">
          Turn on
        </SubmitButton>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => (setOpen(false), begin.reset(), confirm.reset())}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function Passkeys({ enabled, needsPassword, verified }: { enabled: boolean; needsPassword: boolean; verified: boolean }) {
  const keys = usePasskeys(enabled)
  const add = useAddPasskey()
  const remove = useRemovePasskey()
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [adding, setAdding] = useState(false)
  const [problem, setProblem] = useState('')

  function submit(e: FormEvent) {
    e.preventDefault()
    setProblem('')
    add.mutate(
      { name: name.trim(), password },
      {
        onSuccess: (res) => (res ? (setAdding(false), setName(''), setPassword('')) : setProblem('The passkey prompt was closed.')),
        onError: (err) => setProblem(passkeyFailure(err)),
      },
    )
  }
  return (
    <div className="passkeys">
      <ul className="session-list">
        {(keys.data ?? []).map((k) => (
          <li key={k.id} className="session">
            <span>
              <span className="session-client">{k.name}</span>
              <span className="muted session-meta">
                added {dayTime(k.created_at)}
                {k.last_used_at ? ` · last used ${dayTime(k.last_used_at)}` : ''}
              </span>
            </span>
            {verified ? (
              <ActionButton className="btn btn-ghost btn-sm" pending={remove.isPending && remove.variables === k.id} onClick={() => remove.mutate(k.id)}>
                Remove
              </ActionButton>
            ) : null}
          </li>
        ))}
      </ul>
      {!passkeysSupported() ? <p className="muted">This browser cannot use passkeys.</p> : null}
      {passkeysSupported() && !adding ? (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => (setAdding(true), add.reset(), setProblem(''))}>
          Add a passkey
        </button>
      ) : null}
      {adding ? (
        <form className="form" onSubmit={submit} noValidate aria-label="Add a passkey">
          <TextField label="Name it" placeholder="My laptop" maxLength={40} autoFocus value={name} onChange={(e) => setName(e.target.value)} />
          {needsPassword ? (
            <TextField label="Your password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          ) : null}
          <ErrorMessage error={problem || (add.error && !passkeyFailure(add.error) ? add.error : null)} fallback="The passkey could not be added" />
          <div className="row-actions">
            <SubmitButton className="btn btn-primary btn-sm" pending={add.isPending} pendingLabel="Waiting for your passkey…">
              Create passkey
            </SubmitButton>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setAdding(false)} disabled={add.isPending}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <ErrorMessage error={remove.error} fallback="The passkey could not be removed" />
    </div>
  )
}

type Props = {
  user: User
  /** The app's prompt to use the second factor in this session (it unlocks changes here). */
  confirmPrompt?: ReactNode
}

export function TwoStep({ user, confirmPrompt }: Props) {
  const sec = user.security
  const [codes, setCodes] = useState<string[] | null>(null)
  const removeTotp = useRemoveTOTP()
  const fresh = useNewRecoveryCodes()
  if (!sec || !(sec.second_factor_available || sec.totp || sec.passkeys > 0)) return null
  const enrolled = sec.totp || sec.passkeys > 0
  // While the account has no second factor, its password proves the owner (a Google-only account:
  // a sign-in of the last ten minutes).
  const needsPassword = !enrolled && user.has_password !== false
  const mayChange = !enrolled || sec.session_verified

  return (
    <div className="setting two-step" role="region" aria-label="Two-step sign-in">
      <p className="setting-label">Two-step sign-in</p>
      <p className="muted">
        {sec.second_factor_required
          ? 'This league asks organisers to confirm each session with a second factor before acting as one.'
          : 'Protect your organiser powers: once set up, each session confirms with a second factor before acting as an organiser.'}
      </p>
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      <dl className="profile-facts two-step-facts">
        <div>
          <dt>Authenticator app</dt>
          <dd>{sec.totp ? 'on' : 'off'}</dd>
        </div>
        <div>
          <dt>Passkeys</dt>
          <dd>{sec.passkeys}</dd>
        </div>
        <div>
          <dt>Recovery codes</dt>
          <dd>{sec.totp ? `${sec.recovery_codes_left} left` : '—'}</dd>
        </div>
        <div>
          <dt>This session</dt>
          <dd>{sec.session_verified ? 'confirmed ✓' : 'not confirmed'}</dd>
        </div>
      </dl>
      {enrolled && !sec.session_verified ? confirmPrompt : null}
      {mayChange ? (
        <>
          {sec.totp ? (
            <div className="row-actions">
              <ActionButton className="btn btn-ghost btn-sm" pending={fresh.isPending} onClick={() => fresh.mutate(undefined, { onSuccess: (r) => setCodes(r.recovery_codes) })}>
                New recovery codes
              </ActionButton>
              <ActionButton className="btn btn-danger-ghost btn-sm" pending={removeTotp.isPending} onClick={() => removeTotp.mutate()}>
                Remove the authenticator app
              </ActionButton>
            </div>
          ) : (
            <TOTPSetup needsPassword={needsPassword} onCodes={setCodes} />
          )}
          {sec.passkeys_on ? <Passkeys enabled needsPassword={needsPassword} verified={sec.session_verified} /> : null}
        </>
      ) : null}
      <ErrorMessage error={removeTotp.error || fresh.error} fallback="That did not work" />
    </div>
  )
}
