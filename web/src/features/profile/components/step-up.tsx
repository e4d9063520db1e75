// Once the account has a second factor, a change that could take it from its owner (the password, the
// address, the deletion) needs a session that used the factor: the server refuses it otherwise (403). The
// forms say so first and offer the app's prompt to confirm this session, then show themselves.
import type { ReactNode } from 'react'
import type { User } from '@/lib/auth'

/** The account has a second factor that this session has not used. */
export function needsSecondFactor(user: User) {
  const sec = user.security
  return !!sec && (sec.totp || sec.passkeys > 0) && !sec.session_verified
}

/** The app's prompt that confirms this session with its second factor; intro says what for. */
export type ConfirmPrompt = (intro?: string) => ReactNode

type Props = {
  prompt: ConfirmPrompt
  /** What the player is about to do, as in "confirm this session to …". */
  what: string
  onCancel: () => void
}

export function SecondFactorFirst({ prompt, what, onCancel }: Props) {
  return (
    <div className="setting step-up" role="region" aria-label="Confirm it is you">
      {prompt(`Your account has two-step sign-in: confirm this session with your authenticator app, a recovery code or a passkey to ${what}.`)}
      <div className="row-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}
