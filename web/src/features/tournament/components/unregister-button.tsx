// Unregistering, with a confirmation step: the player's card leaves the public list at once.
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import { userQueryKey } from '@/lib/auth'
import { unregisterFromTournament } from '../api/registrations'

export const UNREGISTER_FAILED = 'Failed to unregister from the tournament'

type Props = {
  tournament: string
  /** Called with the server's message once the player is no longer registered. */
  onUnregistered?: (message: string) => void
  disabled?: boolean
}

export function UnregisterButton({ tournament, onUnregistered, disabled }: Props) {
  const qc = useQueryClient()
  const [error, setError] = useState('')

  async function unregister() {
    setError('')
    try {
      const res = await unregisterFromTournament(tournament)
      void qc.invalidateQueries({ queryKey: userQueryKey })
      void qc.invalidateQueries({ queryKey: ['tournament', tournament] })
      onUnregistered?.(res?.message || `You are no longer registered for ${tournament}.`)
    } catch (err) {
      setError(errorMessage(err, UNREGISTER_FAILED))
    }
  }

  return (
    <div className="unregister">
      <ConfirmAction
        label={`Unregister from ${tournament}`}
        question={`Unregister from ${tournament}?`}
        detail="Your card leaves the registered players list at once and captains can no longer pick you. You can register again while registration is open."
        confirmLabel="Yes, unregister"
        cancelLabel="Keep my registration"
        busyLabel="Unregistering…"
        onConfirm={unregister}
        disabled={disabled}
        className="btn btn-ghost btn-danger-ghost"
      />
      <Message kind="error">{error}</Message>
    </div>
  )
}
