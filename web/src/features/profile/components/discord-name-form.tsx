import { useState, type FormEvent } from 'react'
import { ErrorMessage, TextField } from '@/components/ui/form'
import { useUpdateDiscordName } from '../api/update-discord-name'
import { SettingActions, SettingRow } from './setting'

export const DISCORD_REQUIRED = 'Please enter your Discord username'
export const DISCORD_FAILED = 'Failed to update Discord username'

/** Change the linked Discord username (the league server, captains and the bot find you by it). */
export function DiscordNameForm({ current }: { current: string | null }) {
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(current ?? '')
  const [invalid, setInvalid] = useState('')
  const update = useUpdateDiscordName()
  const error = invalid || update.error

  function submit(e: FormEvent) {
    e.preventDefault()
    update.reset()
    const value = name.trim()
    setInvalid(value ? '' : DISCORD_REQUIRED)
    if (value) update.mutate(value, { onSuccess: () => setEditing(false) })
  }

  if (!editing) {
    return (
      <SettingRow
        label="Discord username"
        value={current || 'not linked'}
        done={update.isSuccess ? update.data?.message || 'Discord username updated successfully!' : ''}
        action={
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setName(current ?? '')
              update.reset()
              setEditing(true)
            }}
          >
            {current ? 'Change' : 'Link'}
          </button>
        }
      />
    )
  }
  return (
    <form className="setting form" onSubmit={submit} noValidate aria-label="Change Discord username">
      <TextField
        label="Discord username"
        hint="The name you use on the league's Discord server (2 to 32 characters)."
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        autoFocus
      />
      <ErrorMessage error={error} fallback={DISCORD_FAILED} />
      <SettingActions pending={update.isPending} saveLabel="Save Discord username" onCancel={() => (setEditing(false), setInvalid(''), update.reset())} />
    </form>
  )
}
