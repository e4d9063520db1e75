import { useId, useState, type ChangeEvent, type FormEvent } from 'react'
import { Message } from '@/components/ui/popup'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { changePassword, type PasswordChange } from '../api/account'

export const PASSWORD_MIN = 8
export const PASSWORD_FAILED = 'Failed to change password'

/** The same rules as the server, checked first so the player hears about them at once. */
export function validatePasswordChange(v: PasswordChange) {
  if (!v.currentPassword || !v.newPassword || !v.confirmPassword) return 'Please fill in all fields'
  if ([...v.newPassword].length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`
  if (v.newPassword !== v.confirmPassword) return 'Passwords do not match'
  return ''
}

const EMPTY: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' }

/** Change the password; the server signs every other session out and hands this one a new token. */
export function PasswordForm() {
  const { setSession, refresh } = useSession()
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [values, setValues] = useState<PasswordChange>(EMPTY)
  const [error, setError] = useState('')
  const [done, setDone] = useState('')
  const [busy, setBusy] = useState(false)

  const field = (key: keyof PasswordChange) => ({
    value: values[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [key]: e.target.value })),
  })

  async function submit(e: FormEvent) {
    e.preventDefault()
    setDone('')
    const invalid = validatePasswordChange(values)
    setError(invalid)
    if (invalid) return
    setBusy(true)
    try {
      const res = await changePassword(values)
      setSession(res.token, res.user)
      setValues(EMPTY)
      setEditing(false)
      setDone(res.message || 'Password changed. Other sessions have been signed out.')
    } catch (err) {
      setError(errorMessage(err, PASSWORD_FAILED))
      // A 401 is usually the wrong current password, but may be an expired session: ask.
      if (err instanceof ApiError && err.status === 401) void refresh().catch(() => null)
    } finally {
      setBusy(false)
    }
  }

  if (!editing) {
    return (
      <div className="setting">
        <div className="setting-row">
          <span>
            <span className="setting-label">Password</span>
            <span className="setting-value" aria-hidden="true">
              ••••••••
            </span>
          </span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => (setDone(''), setEditing(true))}>
            Change password
          </button>
        </div>
        <Message kind="success">{done}</Message>
      </div>
    )
  }
  return (
    <form className="setting form" onSubmit={submit} noValidate aria-label="Change password">
      <div className="field">
        <label htmlFor={`${id}-current`}>Current password</label>
        <input id={`${id}-current`} type="password" autoComplete="current-password" autoFocus {...field('currentPassword')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-new`}>New password</label>
        <input id={`${id}-new`} type="password" autoComplete="new-password" aria-describedby={`${id}-hint`} {...field('newPassword')} />
        <p id={`${id}-hint`} className="field-hint">
          At least {PASSWORD_MIN} characters. Your other devices will be signed out.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>Confirm new password</label>
        <input id={`${id}-confirm`} type="password" autoComplete="new-password" {...field('confirmPassword')} />
      </div>
      <Message kind="error">{error}</Message>
      <div className="row-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Saving…' : 'Save new password'}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => (setEditing(false), setValues(EMPTY), setError(''))}
          disabled={busy}
        >
          Cancel
        </button>
      </div>
    </form>
  )
}
