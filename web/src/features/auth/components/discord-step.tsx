import { useState, type FormEvent } from 'react'
import { ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import type { User } from '@/lib/auth'
import { useUpdateDiscordUsername } from '../api/update-discord-username'

export function DiscordStep({ initial, onDone }: { initial: string; onDone: (user?: User) => void }) {
  const [name, setName] = useState(initial)
  const [invalid, setInvalid] = useState('')
  const update = useUpdateDiscordUsername()

  function submit(e: FormEvent) {
    e.preventDefault()
    update.reset()
    setInvalid(name.trim() ? '' : 'Please enter your Discord username')
    if (name.trim()) update.mutate(name.trim(), { onSuccess: (res) => onDone(res.user) })
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Link Discord">
      <p className="muted">Link the Discord account you use on the league server, so captains and the bot can find you.</p>
      <TextField id="discord-username" label="Discord username" value={name} onChange={(e) => setName(e.target.value)} autoComplete="username" data-autofocus />
      <ErrorMessage error={invalid || update.error} fallback="Failed to update Discord username" />
      {/* Once the name is taken, the next step follows: the button stays busy meanwhile. */}
      <SubmitButton className="btn btn-primary btn-block" pending={update.isPending || update.isSuccess} pendingLabel="Saving…">
        Continue
      </SubmitButton>
    </form>
  )
}
