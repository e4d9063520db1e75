// The audit log of the tournament, newest first, a page at a time ("Load more"), narrowed by action
// and by who acted; live: every auction or match change reads the loaded pages again.
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Message } from '@/components/ui/popup'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-client'
import { useLiveTopic } from '@/lib/live'
import { auditKey, useAuditLog, type AuditFilters } from '../api/admin'
import type { AuditEntry } from '../types'

/** A short reading of an entry's data: `team A · amount 1800`. */
export function auditDetail(data: unknown): string {
  if (!data || typeof data !== 'object') return ''
  return Object.entries(data as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${String(v)}`)
    .join(' · ')
}

// The visitor's own formats, as toLocaleTimeString() and toLocaleString() write them, made once:
// each of those calls builds its formatter again (about 0.2 ms an entry, 10 ms of the organisers'
// page as a page of the log arrives).
let timeFormat: Intl.DateTimeFormat | undefined
let dateTimeFormat: Intl.DateTimeFormat | undefined

/** The time of an entry, with its date unless it is today's. */
export function when(at: string): string {
  const d = new Date(at)
  if (d.toDateString() === new Date().toDateString()) {
    return (timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' })).format(d)
  }
  return (dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  })).format(d)
}

const noFilters: AuditFilters = { action: '', actor: null }

export function AuditLog({ tournament }: { tournament: string }) {
  const qc = useQueryClient()
  const [filters, setFilters] = useState<AuditFilters>(noFilters)
  const [actorText, setActorText] = useState('')
  const log = useAuditLog(tournament, filters)
  // Every change of the auction or of a match is also a new line of the log.
  const readAgain = () => void qc.invalidateQueries({ queryKey: auditKey(tournament) })
  const live = { onEvent: readAgain, onResync: readAgain, onReconnect: readAgain }
  useLiveTopic('teams', live)
  useLiveTopic('bracket', live)

  const { error } = log
  const pages = log.data?.pages ?? []
  const seen = new Set<number>()
  const entries = pages
    .flatMap((p) => p.entries)
    .filter((e) => {
      if (seen.has(e.id)) return false
      seen.add(e.id)
      return true
    })
  const actions = pages[0]?.actions ?? []
  const choices = filters.action && !actions.includes(filters.action) ? [filters.action, ...actions] : actions
  const filtered = filters.action !== '' || filters.actor !== null

  const byActor = (id: number | null) => {
    setActorText(id ? String(id) : '')
    setFilters((f) => ({ ...f, actor: id }))
  }
  const submitActor = (e: FormEvent) => {
    e.preventDefault()
    const n = Number(actorText)
    byActor(actorText.trim() !== '' && Number.isInteger(n) && n > 0 ? n : null)
  }

  return (
    <section className="admin-card admin-audit" aria-labelledby="audit-title">
      <div className="card-head">
        <h2 id="audit-title">Audit log</h2>
        <button type="button" className="btn btn-ghost btn-sm" onClick={readAgain} disabled={log.isFetching}>
          {log.isFetching && !log.isFetchingNextPage ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <div className="audit-filters">
        <label>
          <span>Action</span>
          <select value={filters.action} onChange={(e) => setFilters((f) => ({ ...f, action: e.target.value }))}>
            <option value="">All actions</option>
            {choices.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <form onSubmit={submitActor} className="audit-actor-filter">
          <label>
            <span>By user id</span>
            <input type="number" min={1} step={1} inputMode="numeric" placeholder="anyone" value={actorText} onChange={(e) => setActorText(e.target.value)} />
          </label>
          <button type="submit" className="btn btn-ghost btn-sm">
            Filter
          </button>
        </form>
        {filtered ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setActorText('')
              setFilters(noFilters)
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>
      {log.isLoading ? (
        <Spinner label="Loading the audit log" />
      ) : log.isError ? (
        <Message kind="error">{errorMessage(error, 'The audit log could not be loaded.')}</Message>
      ) : !entries.length ? (
        <p className="muted">{filtered ? 'Nothing matches these filters.' : 'Nothing recorded yet.'}</p>
      ) : (
        <>
          <ol className="audit-list" data-testid="audit-list">
            {entries.map((e) => (
              <li key={e.id}>
                <time dateTime={e.at}>{when(e.at)}</time>
                <span className="audit-action">{e.action}</span>
                <bdi className="audit-target">{e.target}</bdi>
                <span className="muted audit-actor">
                  by <Actor actor={e.actor} onPick={byActor} />
                </span>
                <span className="muted audit-data">{auditDetail(e.data)}</span>
              </li>
            ))}
          </ol>
          <div className="audit-more">
            {log.hasNextPage ? (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : null}
            <span className="muted small">
              {entries.length} {entries.length === 1 ? 'entry' : 'entries'}
              {log.hasNextPage ? '' : ', all shown'}
            </span>
          </div>
          {log.isFetchNextPageError ? <Message kind="error">{errorMessage(error, 'More entries could not be loaded.')}</Message> : null}
        </>
      )}
    </section>
  )
}

/**
 * Who acted: the account's id (what identifies it) and its name as the server gives it, a proven
 * Discord username marked verified; picking it shows that account's actions only. A name is set
 * apart (`bdi`) so that no character in it can turn the text around it.
 */
function Actor({ actor, onPick }: { actor: AuditEntry['actor']; onPick: (id: number) => void }) {
  const id = actor.user_id
  if (id === null) return <span>{actor.name}</span>
  return (
    <button type="button" className="audit-actor-pick" onClick={() => onPick(id)} title={`Show only the actions of user #${id}`}>
      <span className="audit-actor-id">#{id}</span> <bdi>{actor.name}</bdi>
      {actor.discord_verified ? (
        <span className="audit-verified" title="A proven Discord account">
          {' '}
          ✓ Discord
        </span>
      ) : null}
    </button>
  )
}
