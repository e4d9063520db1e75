// /admin's co-organisers: the site's organisers grant a player the running of this tournament alone
// (found by part of a name or Discord name, or by the whole e-mail address: never by a part of one,
// so that addresses cannot be found out letter by letter), and take it back.
import { useState, type FormEvent } from 'react'
import { ActionButton, ErrorMessage, SubmitButton, TextField } from '@/components/ui/form'
import { dayTime } from '@/lib/time'
import { findAccounts, useChangeStaff, useStaff, type AccountRef } from '../api/staff'

export function StaffAdmin({ tournament }: { tournament: string }) {
  const staff = useStaff(tournament)
  const change = useChangeStaff(tournament)
  const [q, setQ] = useState('')
  const [found, setFound] = useState<AccountRef[] | null>(null)
  const [searching, setSearching] = useState(false)
  const [searchError, setSearchError] = useState<unknown>(null)
  const list = staff.data ?? []

  async function search(e: FormEvent) {
    e.preventDefault()
    setSearching(true)
    setSearchError(null)
    try {
      setFound(await findAccounts(q.trim()))
    } catch (err) {
      setSearchError(err)
    } finally {
      setSearching(false)
    }
  }

  return (
    <section className="admin-card staff-admin" aria-labelledby="staff-admin-title">
      <h2 id="staff-admin-title">Co-organisers</h2>
      <p className="muted">
        A co-organiser runs {tournament} as you do (phases, auction, matches, rulings), and nothing else: no other season,
        no co-organisers of their own.
      </p>
      {list.length === 0 ? <p className="muted">Nobody helps run {tournament} yet.</p> : null}
      <ul className="session-list">
        {list.map((m) => (
          <li key={m.user_id} className="session">
            <span>
              <span className="session-client">{m.name}</span>
              <span className="muted session-meta">
                since {dayTime(m.granted_at)}
                {m.granted_by ? ` · granted by ${m.granted_by}` : ''}
              </span>
            </span>
            <ActionButton
              className="btn btn-danger-ghost btn-sm"
              pending={change.isPending && change.variables?.userId === m.user_id}
              onClick={() => change.mutate({ userId: m.user_id, grant: false })}
            >
              Remove
            </ActionButton>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={search} aria-label="Find an account">
        <TextField
          label="Find a player"
          placeholder="part of a name or Discord name, or a whole e-mail"
          hint="An e-mail address is matched whole, not by a part of it."
          value={q}
          maxLength={64}
          onChange={(e) => setQ(e.target.value)}
        />
        <SubmitButton className="btn btn-ghost" pending={searching} pendingLabel="Searching…" disabled={q.trim().length < 2}>
          Search
        </SubmitButton>
      </form>
      {found ? (
        found.length === 0 ? (
          <p className="muted">No account matches.</p>
        ) : (
          <ul className="session-list" aria-label="Accounts found">
            {found.map((acc) => (
              <li key={acc.id} className="session">
                <span>
                  <span className="session-client">{acc.name}</span>
                  <span className="muted session-meta">
                    {acc.discord_username ? `${acc.discord_username}${acc.discord_verified ? ' ✓' : ' (unverified)'}` : 'no Discord'} · #{acc.id}
                  </span>
                </span>
                {list.some((m) => m.user_id === acc.id) ? (
                  <span className="muted">co-organiser</span>
                ) : (
                  <ActionButton
                    className="btn btn-primary btn-sm"
                    pending={change.isPending && change.variables?.userId === acc.id}
                    onClick={() => change.mutate({ userId: acc.id, grant: true })}
                  >
                    Make co-organiser
                  </ActionButton>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
      <ErrorMessage error={searchError || staff.error || change.error} fallback="That did not work" />
    </section>
  )
}
