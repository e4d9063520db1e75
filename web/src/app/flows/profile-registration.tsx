// The tournament part of the profile view: where a registered player looks for "unregister", and
// where one not registered finds Register while the season takes registrations (else what comes next).
import { useState } from 'react'
import { Message } from '@/components/ui/popup'
import type { User } from '@/lib/auth'
import { CheckinButton } from '@/features/tournament/components/checkin'
import { UnregisterButton } from '@/features/tournament/components/unregister-button'
import { RegistrationClosed } from './registration-closed'
import type { RegistrationWindow } from './registration-window'

type Props = {
  user: User
  season: RegistrationWindow
  onRegister: () => void
  /** A link leaves for another page (the modal closes). */
  onLeave?: () => void
}

export function ProfileRegistration({ user, season, onRegister, onLeave }: Props) {
  const tournament = season.tournament
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
  if (season.open === false) {
    return (
      <div className="profile-registration">
        <Message kind="info">{message}</Message>
        <RegistrationClosed season={season} user={user} statsSaved={user.sk_stats_uploaded} onLeave={onLeave} />
        {!user.sk_stats_uploaded ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onRegister}>
            Upload SK stats
          </button>
        ) : null}
      </div>
    )
  }
  return (
    <div className="profile-registration">
      <Message kind="info">{message}</Message>
      <p className="muted">You are not registered for {tournament}.</p>
      <button type="button" className="btn btn-primary btn-sm" onClick={onRegister} disabled={season.open === undefined}>
        {user.sk_stats_uploaded ? `Register for ${tournament}` : 'Upload stats to register'}
      </button>
    </div>
  )
}
