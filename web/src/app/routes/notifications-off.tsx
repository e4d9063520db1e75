// Where a notification's unsubscribe link lands: one button turns that kind of notification off
// for the player the link was made for, without signing in (the token is signed by the server).
import { useState } from 'react'
import { useSearchParams } from '@/lib/router'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import { turnOff } from '@/features/notifications/api/notifications'

export default function NotificationsOffRoute() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  async function off() {
    setBusy(true)
    try {
      setOutcome({ kind: 'success', text: (await turnOff(token)).message })
    } catch (err) {
      setOutcome({ kind: 'error', text: errorMessage(err, 'Could not turn it off') })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="page notifications-off">
      <h1>Notifications</h1>
      <p>Turn this kind of notification off? You can turn it on again on your profile.</p>
      {outcome?.kind === 'success' ? null : (
        <button type="button" className="btn btn-primary" onClick={off} disabled={busy || !token}>
          {busy ? 'Turning off…' : 'Turn it off'}
        </button>
      )}
      {outcome ? <Message kind={outcome.kind}>{outcome.text}</Message> : null}
    </div>
  )
}
