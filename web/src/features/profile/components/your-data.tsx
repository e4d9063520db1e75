// The player's data: a copy of everything the site holds about them, and the account's deletion
// (personal data erased at once; the league's records kept under a pseudonym).
import { useState, type FormEvent } from 'react'
import { ActionButton, ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import type { User } from '@/lib/auth'
import { downloadExport, useDeleteAccount } from '../api/security'
import { SecondFactorFirst, type ConfirmPrompt } from './step-up'

/** stepUp: the session must use its second factor before the account can be deleted. */
export function YourData({ user, stepUp }: { user: User; stepUp?: ConfirmPrompt }) {
  const [exporting, setExporting] = useState(false)
  const [exportError, setExportError] = useState<unknown>(null)
  const [deleting, setDeleting] = useState(false)
  const [password, setPassword] = useState('')
  const del = useDeleteAccount()
  const googleOnly = user.has_password === false

  async function save() {
    setExporting(true)
    setExportError(null)
    try {
      await downloadExport(user)
    } catch (err) {
      setExportError(err)
    } finally {
      setExporting(false)
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    del.mutate(password)
  }

  return (
    <div className="your-data">
      <div className="setting">
        <div className="setting-row">
          <span>
            <span className="setting-label">Your data</span>
            <span className="setting-value">Everything Pitlane holds about you, as one JSON file.</span>
          </span>
          <ActionButton className="btn btn-ghost btn-sm" pending={exporting} pendingLabel="Preparing…" onClick={save}>
            Download my data
          </ActionButton>
        </div>
        <ErrorMessage error={exportError} fallback="The download failed" />
      </div>
      {!deleting ? (
        <div className="setting">
          <div className="setting-row">
            <span>
              <span className="setting-label">Delete account</span>
              <span className="setting-value">Erase your account for good.</span>
            </span>
            <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => (setDeleting(true), del.reset())}>
              Delete my account
            </button>
          </div>
        </div>
      ) : stepUp ? (
        <SecondFactorFirst prompt={stepUp} what="delete your account" onCancel={() => setDeleting(false)} />
      ) : (
        <form className="setting form danger-zone" onSubmit={submit} noValidate aria-label="Delete account">
          <p>
            <strong>This cannot be undone.</strong> Your e-mail, password, Google and Discord links, screenshots, kart picture,
            devices and notification settings are erased at once, and you are signed out everywhere. The league’s records
            (teams, matches, sales, standings) stay, under the name “Deleted player {user.id}”.
          </p>
          {googleOnly ? (
            <p className="muted">Your account signs in with Google: sign in again first if it has been more than ten minutes.</p>
          ) : (
            <TextField label="Your password" type="password" autoComplete="current-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
          )}
          <ErrorMessage error={del.error} fallback="The account could not be deleted" />
          <div className="row-actions">
            <SubmitButton className="btn btn-danger btn-sm" pending={del.isPending} pendingLabel="Deleting…">
              Delete my account for good
            </SubmitButton>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDeleting(false)} disabled={del.isPending}>
              Keep my account
            </button>
          </div>
        </form>
      )}
    </div>
  )
}
