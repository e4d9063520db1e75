// The tournament part of the profile view: where a registered player looks for "unregister".
import { useState } from 'react'
import { Message } from '@/components/ui/popup'
import { useTournamentName } from '@/config/app-config'
import type { User } from '@/lib/auth'
import { CheckinButton } from '@/features/tournament/components/checkin'
import { UnregisterButton } from '@/features/tournament/components/unregister-button'

export function ProfileRegistration({ user, onRegister }: { user: User; onRegister: () => void }) {
  const tournament = useTournamentName()
  const [message, setMessage] = useState('')

  if (user.tournament_registered) {
    return (
      <div className="profile-registration">
        <p className="registered-note">✓ Registered for {tournament}</p>
        <CheckinButton tournament={tournament} className="btn btn-primary btn-sm" />
        <UnregisterButton tournament={tournament} onUnregistered={setMessage} />
      </div>
    )
  }
  return (
    <div className="profile-registration">
      <Message kind="info">{message}</Message>
      <p className="muted">You are not registered for {tournament}.</p>
      <button type="button" className="btn btn-primary btn-sm" onClick={onRegister}>
        {user.sk_stats_uploaded ? `Register for ${tournament}` : 'Upload stats to register'}
      </button>
    </div>
  )
}
