import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useAction } from '@/lib/use-action'
import { matchCalls, matchKey } from '../api/league'
import { fromLocalInput, matchTime, untilMatch } from '../lib/match-model'
import type { Match } from '../types'

const MAX_PROPOSALS = 3

/**
 * The captains agreeing on the match's time: the standing proposal in the reader's time zone, an
 * Accept per time for the side that answers, and up to three times to propose (or counter with).
 */
export function ProposalPanel({ match, canPropose, canAccept }: { match: Match; canPropose: boolean; canAccept: boolean }) {
  const qc = useQueryClient()
  const action = useAction()
  const [values, setValues] = useState<string[]>([''])
  const [invalid, setInvalid] = useState('')
  const proposal = match.proposal
  if (!proposal && !canPropose) return null

  const run = (call: () => Promise<Match>, fallback: string) =>
    action.run(async () => qc.setQueryData(matchKey(match.id), await call()), fallback)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const times = values.map(fromLocalInput)
    if (times.some((t) => !t)) {
      setInvalid('Choose a day and a time for each proposal.')
      return
    }
    setInvalid('')
    if (await run(() => matchCalls.propose(match.id, times as string[]), 'The times could not be proposed.')) setValues([''])
  }
  const counter = !!proposal && canAccept

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
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={action.busy}
                    onClick={() => void run(() => matchCalls.accept(match.id, t), 'The time could not be accepted.')}
                  >
                    Accept
                  </button>
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
            <button type="submit" className="btn btn-primary" disabled={action.busy || values.some((v) => !v)}>
              {counter ? 'Counter' : 'Propose'}
            </button>
          </div>
          <p className="msg msg-error" role="alert">
            {invalid || action.error}
          </p>
        </form>
      ) : (
        <p className="msg msg-error" role="alert">
          {action.error}
        </p>
      )}
    </section>
  )
}
