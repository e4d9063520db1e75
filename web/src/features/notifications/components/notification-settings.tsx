// The profile's "Notifications": which kinds a player hears of, by push in their browsers and by
// Discord DM from the bot, and this browser's push switch. Without VAPID keys on the server push
// is off and the section says only that it is unavailable (the keys are the operator's matter, not
// the player's); DMs need the bot and a linked Discord account.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import {
  chooseNotifications,
  getNotifications,
  notificationsKey,
  subscribePush,
  unsubscribePush,
  type NotificationChoice,
  type NotificationSettings as Settings,
} from '../api/notifications'
import { currentEndpoint, pushSupported, subscribeBrowser, unsubscribeBrowser } from '../lib/browser-push'

type Outcome = { kind: 'error' | 'success'; text: string }

export function NotificationSettings() {
  const qc = useQueryClient()
  const q = useQuery({ queryKey: notificationsKey, queryFn: getNotifications })
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [busy, setBusy] = useState(false)
  const [here, setHere] = useState<string | null>(null)
  useEffect(() => {
    void currentEndpoint().then(setHere, () => setHere(null))
  }, [])

  if (q.isPending) return <p className="muted">Loading notifications…</p>
  if (q.isError) return <Message kind="error">{errorMessage(q.error, 'Could not load your notifications')}</Message>
  const s = q.data

  // The box follows the click at once; the server's answer then stands (or the old state, on an error).
  async function save(choice: NotificationChoice) {
    setOutcome(null)
    qc.setQueryData<Settings>(notificationsKey, (old) =>
      old ? { ...old, kinds: old.kinds.map((k) => (k.kind === choice.kind ? choice : k)) } : old,
    )
    try {
      qc.setQueryData<Settings>(notificationsKey, await chooseNotifications([choice]))
    } catch (err) {
      setOutcome({ kind: 'error', text: errorMessage(err, 'Could not save') })
      void qc.invalidateQueries({ queryKey: notificationsKey })
    }
  }

  async function togglePush() {
    setBusy(true)
    setOutcome(null)
    try {
      if (here) {
        const endpoint = await unsubscribeBrowser()
        if (endpoint) await unsubscribePush(endpoint)
        setHere(null)
        setOutcome({ kind: 'success', text: 'Push notifications are off in this browser.' })
      } else {
        const sub = await subscribeBrowser(s.push.public_key)
        const res = await subscribePush(sub)
        setHere(sub.endpoint)
        setOutcome({ kind: 'success', text: res.message })
      }
      void qc.invalidateQueries({ queryKey: notificationsKey })
    } catch (err) {
      setOutcome({ kind: 'error', text: err instanceof Error && !('status' in err) ? err.message : errorMessage(err, 'Could not change push') })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="setting notification-settings" data-testid="notification-settings">
      <div className="setting-row">
        <span>
          <span className="setting-label">Push in this browser</span>
          <span className="setting-value">
            {!s.push.available
              ? 'Push notifications are unavailable here for now.'
              : !pushSupported()
                ? 'This browser cannot receive push notifications.'
                : here
                  ? `On (${s.push.devices} browser${s.push.devices === 1 ? '' : 's'} in all)`
                  : 'Off'}
          </span>
        </span>
        {s.push.available && pushSupported() ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={togglePush} disabled={busy}>
            {here ? 'Turn off here' : 'Turn on here'}
          </button>
        ) : null}
      </div>
      {!s.discord.available ? (
        <p className="muted">Discord DMs are off on this server (no bot configured).</p>
      ) : !s.discord.linked ? (
        <p className="muted">Link your Discord account above to get DMs from the bot.</p>
      ) : null}
      <table className="notification-table">
        <thead>
          <tr>
            <th scope="col">Tell me when</th>
            <th scope="col">Push</th>
            <th scope="col">Discord DM</th>
          </tr>
        </thead>
        <tbody>
          {s.kinds.map((k) => (
            <tr key={k.kind}>
              <th scope="row">{k.label}</th>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${k.label}: push`}
                  checked={k.push}
                  disabled={!s.push.available}
                  onChange={(e) => void save({ ...k, push: e.target.checked })}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${k.label}: Discord DM`}
                  checked={k.discord}
                  disabled={!s.discord.available || !s.discord.linked}
                  onChange={(e) => void save({ ...k, discord: e.target.checked })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {outcome ? <Message kind={outcome.kind}>{outcome.text}</Message> : null}
    </div>
  )
}
