import { useState } from 'react'
import { ErrorMessage, TextField, useCheckedForm } from '@/components/ui/form'
import { useChangePassword, type PasswordChange } from '../api/change-password'
import { SettingActions, SettingRow } from './setting'
import { SecondFactorFirst, type ConfirmPrompt } from './step-up'

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

/**
 * Change the password; the server signs every other session out and hands this one a new token. stepUp: the
 * session must use its second factor first.
 */
export function PasswordForm({ stepUp }: { stepUp?: ConfirmPrompt }) {
  const [editing, setEditing] = useState(false)
  const change = useChangePassword()
  const { bind: field, reset, invalid, onSubmit } = useCheckedForm<keyof PasswordChange>(EMPTY, validatePasswordChange, change.reset)
  const submit = onSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => {
        reset()
        setEditing(false)
      },
    }),
  )

  if (!editing) {
    return (
      <SettingRow
        label="Password"
        value="••••••••"
        hideValue
        done={change.isSuccess ? change.data.message || 'Password changed. Other sessions have been signed out.' : ''}
        action={
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => (change.reset(), setEditing(true))}>
            Change password
          </button>
        }
      />
    )
  }
  if (stepUp) return <SecondFactorFirst prompt={stepUp} what="change your password" onCancel={() => setEditing(false)} />
  return (
    <form className="setting form" onSubmit={submit} noValidate aria-label="Change password">
      <TextField label="Current password" type="password" autoComplete="current-password" autoFocus {...field('currentPassword')} />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters. Your other devices will be signed out.`}
        {...field('newPassword')}
      />
      <TextField label="Confirm new password" type="password" autoComplete="new-password" {...field('confirmPassword')} />
      <ErrorMessage error={invalid || change.error} fallback={PASSWORD_FAILED} />
      <SettingActions pending={change.isPending} saveLabel="Save new password" onCancel={() => (setEditing(false), reset(), change.reset())} />
    </form>
  )
}
