// 'Sign in as Captain' (tournament page): the normal login, accepted only for captains and
// admins. Anyone else is told so and no session is kept.
import { useState } from 'react'
import { Link } from '@/lib/router'
import { Modal } from '@/components/ui/modal'
import { Message } from '@/components/ui/popup'
import { useSession, type User } from '@/lib/auth'
import { can, staffRole } from '@/lib/authorization'
import { emitAuthComplete } from '@/lib/window-events'
import { SignInForm } from './sign-in-form'

export const NOT_A_CAPTAIN = 'This account is not a team captain.'

export function CaptainModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user, setSession } = useSession()
  const [error, setError] = useState('')
  const [welcome, setWelcome] = useState<User | null>(null)

  function close() {
    setError('')
    setWelcome(null)
    onClose()
  }

  const signedInCaptain = welcome ?? (can(user, 'staff') ? user : null)

  return (
    <Modal open={open} onClose={close} title="Sign in as Captain" className="captain-modal">
      {signedInCaptain ? (
        <div className="captain-welcome">
          <p className="msg msg-success" role="status">
            Signed in as {staffRole(signedInCaptain)} {signedInCaptain.name || signedInCaptain.email}.
          </p>
          <p className="muted">
            {can(signedInCaptain, 'organise')
              ? 'The organisers’ page runs the phases, the captains, the tiers and the auction.'
              : 'Your captain view has your purse, your roster, the bid buttons and the captains room.'}
          </p>
          <div className="row-actions">
            <Link to={can(signedInCaptain, 'organise') ? '/admin' : '/captain'} className="btn btn-primary" onClick={close}>
              {can(signedInCaptain, 'organise') ? 'Go to the organisers’ page' : 'Go to my captain view'}
            </Link>
            <button type="button" className="btn btn-ghost" onClick={close}>
              Stay here
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="muted">Captains use the account the organisers made them captain with.</p>
          <Message kind="error">{error}</Message>
          <SignInForm
            idPrefix="captain"
            submitLabel="Sign in as Captain"
            onSignedIn={(res) => {
              if (!can(res.user, 'staff')) {
                setError(NOT_A_CAPTAIN)
                return
              }
              setError('')
              setSession(res.token, res.user)
              emitAuthComplete(res.user)
              setWelcome(res.user)
            }}
            onNeedsVerification={() => setError('Verify your e-mail first: sign up or sign in from the header.')}
          />
        </>
      )}
    </Modal>
  )
}
