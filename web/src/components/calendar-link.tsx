// A calendar feed's secret address (the player's own, or a team's) with Copy and Reset link.
// Shared by the profile (the player's own) and the captain's matches (the team's).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage } from '@/components/ui/form'
import { api } from '@/lib/api-client'

type Link = { url: string }

/** The feed's path under /api: the player's own without a team, else the team's. */
function feedPath(tournament?: string, team?: string) {
  return team && tournament
    ? `/tournaments/${encodeURIComponent(tournament)}/teams/${encodeURIComponent(team)}/calendar`
    : '/auth/calendar'
}

export function CalendarLink({ tournament, team, canReset = true }: { tournament?: string; team?: string; canReset?: boolean }) {
  const path = feedPath(tournament, team)
  const key = ['calendar', path]
  const qc = useQueryClient()
  // Asked for only when the reader opens it: the secret is not on the page until then.
  const [shown, setShown] = useState(false)
  const { data, isError } = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<Link>(path, signal), enabled: shown })
  const reset = useMutation({
    mutationFn: () => api.post<Link>(`${path}/reset`),
    onSuccess: (link) => {
      qc.setQueryData(key, link)
      setCopied(false)
    },
  })
  const [copied, setCopied] = useState(false)
  const whose = team ? `Team ${team}’s matches` : 'your matches'
  if (!shown || !data) {
    return (
      <div className="calendar-link">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShown(true)} disabled={shown && !isError}>
          Calendar feed of {whose}
        </button>
        {isError ? (
          <p className="msg msg-error" role="alert">
            The calendar link could not be loaded.
          </p>
        ) : null}
      </div>
    )
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(data!.url)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="calendar-link" data-testid="calendar-link">
      <label htmlFor={`calendar-${team ?? 'me'}`}>Calendar feed: {whose}, in your calendar app’s time zone</label>
      <div className="row-actions">
        <input id={`calendar-${team ?? 'me'}`} readOnly value={data.url} onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        {canReset ? (
          <ConfirmAction
            label="Reset link"
            question="Reset the calendar link?"
            detail="Calendars subscribed to the old link stop updating: subscribe again with the new one."
            confirmLabel="Reset link"
            cancelLabel="Keep it"
            busyLabel="Resetting…"
            className="btn btn-ghost btn-sm"
            onConfirm={() => reset.mutateAsync()}
          />
        ) : null}
      </div>
      <p className="muted small">Anyone with this link sees these matches: keep it to yourself, or reset it.</p>
      <ErrorMessage error={reset.error} fallback="The link could not be reset." />
    </div>
  )
}
