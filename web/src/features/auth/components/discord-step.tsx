import { useState, type FormEvent } from 'react'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import type { User } from '@/lib/auth'
import { updateDiscordUsername } from '../api/auth'

export function DiscordStep({ initial, onDone }: { initial: string; onDone: (user?: User) => void }) {
  const [name, setName] = useState(initial)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError('')
    if (!name.trim()) {
      setError('Please enter your Discord username')
      return
    }
    setBusy(true)
    try {
      const res = await updateDiscordUsername(name.trim())
      if (!res?.message) throw new Error('no message')
      onDone(res.user)
    } catch (err) {
      setError(errorMessage(err, 'Failed to update Discord username'))
      setBusy(false)
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Link Discord">
      <p className="muted">Link the Discord account you use on the league server, so captains and the bot can find you.</p>
      <div className="field">
        <label htmlFor="discord-username">Discord username</label>
        <input id="discord-username" value={name} onChange={(e) => setName(e.target.value)} autoComplete="username" data-autofocus />
      </div>
      <Message kind="error">{error}</Message>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Saving…' : 'Continue'}
      </button>
    </form>
  )
}
