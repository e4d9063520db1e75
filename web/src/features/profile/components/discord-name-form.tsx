import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import { userQueryKey } from '@/lib/auth'
import { updateDiscordName } from '../api/account'

export const DISCORD_REQUIRED = 'Please enter your Discord username'
export const DISCORD_FAILED = 'Failed to update Discord username'

/** Change the linked Discord username (the league server, captains and the bot find you by it). */
export function DiscordNameForm({ current }: { current: string | null }) {
  const qc = useQueryClient()
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(current ?? '')
  const [error, setError] = useState('')
  const [done, setDone] = useState('')
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError('')
    setDone('')
    const value = name.trim()
    if (!value) {
      setError(DISCORD_REQUIRED)
      return
    }
    setBusy(true)
    try {
      const res = await updateDiscordName(value)
      if (res?.user) qc.setQueryData(userQueryKey, res.user)
      else void qc.invalidateQueries({ queryKey: userQueryKey })
      // The public card shows the Discord name too.
      void qc.invalidateQueries({ queryKey: ['tournament'] })
      setDone(res?.message || 'Discord username updated successfully!')
      setEditing(false)
    } catch (err) {
      setError(errorMessage(err, DISCORD_FAILED))
    } finally {
      setBusy(false)
    }
  }

  if (!editing) {
    return (
      <div className="setting">
        <div className="setting-row">
          <span>
            <span className="setting-label">Discord username</span>
            <span className="setting-value">{current || 'not linked'}</span>
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setName(current ?? '')
              setDone('')
              setEditing(true)
            }}
          >
            {current ? 'Change' : 'Link'}
          </button>
        </div>
        <Message kind="success">{done}</Message>
      </div>
    )
  }
  return (
    <form className="setting form" onSubmit={submit} noValidate aria-label="Change Discord username">
      <div className="field">
        <label htmlFor={id}>Discord username</label>
        <input
          id={id}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          autoFocus
        />
        <p id={`${id}-hint`} className="field-hint">
          The name you use on the league&apos;s Discord server (2 to 32 characters).
        </p>
      </div>
      <Message kind="error">{error}</Message>
      <div className="row-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Saving…' : 'Save Discord username'}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => (setEditing(false), setError(''))} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  )
}
