// Unregistering, with a confirmation step: the player's card leaves the public list at once. Offered
// only while the season registers (the server refuses it after); then it says whom to ask.
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage } from '@/components/ui/form'
import { allows } from '@/lib/phase'
import { useUnregister } from '../api/unregister'
import { useTournamentInfo } from '../api/registrations'

export const UNREGISTER_FAILED = 'Failed to unregister from the tournament'

type Props = {
  tournament: string
  /** Called with the server's message once the player is no longer registered. */
  onUnregistered?: (message: string) => void
  disabled?: boolean
}

export function UnregisterButton({ tournament, onUnregistered, disabled }: Props) {
  const unregister = useUnregister(tournament)
  const phase = useTournamentInfo(tournament).data?.status
  if (phase && !allows('unregister', phase, 'player')) {
    return <p className="muted unregister-closed">Registration is closed: to leave {tournament}, ask an organiser to withdraw you.</p>
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
        onConfirm={() =>
          unregister.mutateAsync().then((res) => onUnregistered?.(res?.message || `You are no longer registered for ${tournament}.`))
        }
        disabled={disabled}
        className="btn btn-ghost btn-danger-ghost"
      />
      <ErrorMessage error={unregister.error} fallback={UNREGISTER_FAILED} />
    </div>
  )
}
