// The audit log of the tournament, newest first.
import { Message } from '@/components/ui/popup'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-client'
import { useAuditLog } from '../api/admin'

/** A short reading of an entry's data: `team A · amount 1800`. */
export function auditDetail(data: unknown): string {
  if (!data || typeof data !== 'object') return ''
  return Object.entries(data as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${String(v)}`)
    .join(' · ')
}

export function AuditLog({ tournament }: { tournament: string }) {
  const { data, isLoading, isError, error, refetch, isFetching } = useAuditLog(tournament, true)
  return (
    <section className="admin-card" aria-labelledby="audit-title">
      <div className="card-head">
        <h2 id="audit-title">Audit log</h2>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => refetch()} disabled={isFetching}>
          {isFetching ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      {isLoading ? (
        <Spinner label="Loading the audit log" />
      ) : isError ? (
        <Message kind="error">{errorMessage(error, 'The audit log could not be loaded.')}</Message>
      ) : !data?.entries.length ? (
        <p className="muted">Nothing recorded yet.</p>
      ) : (
        <ol className="audit-list" data-testid="audit-list">
          {data.entries.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString()}</time>
              <span className="audit-action">{e.action}</span>
              <span className="audit-target">{e.target}</span>
              <span className="muted audit-actor">by {e.actor.name || 'system'}</span>
              <span className="muted audit-data">{auditDetail(e.data)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
