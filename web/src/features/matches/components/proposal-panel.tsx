import { useState, type FormEvent } from 'react'
import { ActionButton, ErrorMessage, SubmitButton } from '@/components/ui/form'
import { lastFailure } from '@/lib/mutations'
import { useAcceptTime } from '../api/accept-time'
import { useProposeTimes } from '../api/propose-times'
import { fromLocalInput, matchTime, untilMatch } from '../lib/match-model'
import type { Match } from '../types'

const MAX_PROPOSALS = 3

/**
 * The captains agreeing on the match's time: the standing proposal in the reader's time zone, an
 * Accept per time for the side that answers, and up to three times to propose (or counter with).
 */
export function ProposalPanel({ match, canPropose, canAccept }: { match: Match; canPropose: boolean; canAccept: boolean }) {
  const propose = useProposeTimes(match.id)
  const accept = useAcceptTime(match.id)
  const [values, setValues] = useState<string[]>([''])
  const [invalid, setInvalid] = useState('')
  const proposal = match.proposal
  if (!proposal && !canPropose) return null

  async function submit(e: FormEvent) {
    e.preventDefault()
    const times = values.map(fromLocalInput)
    if (times.some((t) => !t)) {
      setInvalid('Choose a day and a time for each proposal.')
      return
    }
    setInvalid('')
    propose.mutate(times as string[], { onSuccess: () => setValues(['']) })
  }
  const counter = !!proposal && canAccept
  const busy = propose.isPending || accept.isPending
  const failure = lastFailure([propose, 'The times could not be proposed.'], [accept, 'The time could not be accepted.'])

  return (
    <section className="match-panel proposal-panel" aria-label="Proposed times">
      <h2>Proposed times</h2>
      {proposal ? (
        <>
          <p className="muted small">Team {proposal.by} proposes (your time zone):</p>
          <ul className="proposal-times" data-testid="proposal-times">
            {proposal.times.map((t) => (
              <li key={t}>
                <time dateTime={t}>{matchTime(t)}</time> <span className="muted small">({untilMatch(t)})</span>{' '}
                {canAccept ? (
                  <ActionButton className="btn btn-primary btn-sm" pending={busy} onClick={() => accept.mutate(t)}>
                    Accept
                  </ActionButton>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted small">Propose up to three times; the other captain accepts one or counters.</p>
      )}
      {canPropose ? (
        <form className="inline-form" onSubmit={submit}>
          {values.map((v, i) => (
            <div className="field" key={i}>
              <label htmlFor={`propose-${match.id}-${i}`}>
                {counter ? 'Counter' : 'Propose'} time {i + 1} (your time zone)
              </label>
              <input
                id={`propose-${match.id}-${i}`}
                type="datetime-local"
                value={v}
                onChange={(e) => setValues(values.map((x, j) => (j === i ? e.target.value : x)))}
              />
            </div>
          ))}
          <div className="row-actions">
            {values.length < MAX_PROPOSALS ? (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setValues([...values, ''])}>
                Another time
              </button>
            ) : null}
            <SubmitButton pending={busy} disabled={values.some((v) => !v)}>
              {counter ? 'Counter' : 'Propose'}
            </SubmitButton>
          </div>
          <ErrorMessage error={invalid || failure} />
        </form>
      ) : (
        <ErrorMessage error={failure} />
      )}
    </section>
  )
}
