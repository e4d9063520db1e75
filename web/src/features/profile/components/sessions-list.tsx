// The account's open sessions (one per browser that signed in), each with its end; "Sign out of other
// devices" keeps this one, "Sign out everywhere" ends this one too. The list loads when opened.
import { useState } from 'react'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { plural } from '@/lib/format'
import { ago, dayTime } from '@/lib/time'
import { useEndSession, useSessions, useSignOutEverywhere } from '../api/security'

export function SessionsList() {
  const [open, setOpen] = useState(false)
  const sessions = useSessions(open)
  const end = useEndSession()
  const everywhere = useSignOutEverywhere()
  const list = sessions.data ?? []
  const others = list.filter((s) => !s.current).length
  if (!open) {
    return (
      <div className="setting">
        <div className="setting-row">
          <span>
            <span className="setting-label">Signed-in devices</span>
            <span className="setting-value">Where your account is signed in</span>
          </span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOpen(true)}>
            Manage devices
          </button>
        </div>
      </div>
    )
  }
  return (
    <div className="setting sessions" aria-label="Signed-in devices" role="region">
      <p className="setting-label">Signed-in devices</p>
      {sessions.isLoading ? <Spinner label="Loading your sessions" /> : null}
      <ul className="session-list">
        {list.map((s) => (
          <li key={s.id} className={s.current ? 'session is-current' : 'session'}>
            <span>
              <span className="session-client">{s.client}</span>
              <span className="muted session-meta">
                {s.current ? 'This device · ' : ''}signed in {dayTime(s.created_at)} ({s.method}) · last active {ago(s.seen_at)}
                {s.second_factor_at ? ' · two-step ✓' : ''}
              </span>
            </span>
            {s.current ? null : (
              <ActionButton className="btn btn-ghost btn-sm" pending={end.isPending && end.variables === s.id} pendingLabel="Signing out…" onClick={() => end.mutate(s.id)}>
                Sign out
              </ActionButton>
            )}
          </li>
        ))}
      </ul>
      <div className="row-actions">
        {others > 0 ? (
          <ActionButton className="btn btn-ghost btn-sm" pending={everywhere.isPending && everywhere.variables} pendingLabel="Signing out…" onClick={() => everywhere.mutate(true)}>
            Sign out of {plural(others, 'other device')}
          </ActionButton>
        ) : null}
        <ActionButton className="btn btn-danger-ghost btn-sm" pending={everywhere.isPending && !everywhere.variables} pendingLabel="Signing out…" onClick={() => everywhere.mutate(false)}>
          Sign out everywhere
        </ActionButton>
      </div>
      <p className="muted field-hint">Signing out of other devices also gives your calendar feed a new address.</p>
      <ErrorMessage error={sessions.error || end.error || everywhere.error} fallback="Your sessions could not be changed" />
    </div>
  )
}
