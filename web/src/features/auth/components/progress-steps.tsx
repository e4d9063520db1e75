import { STEP_LABELS } from '../lib/resume'

/**
 * The four-step progress of the player's path (docs/site.md); `step` is the one in progress (5 = all
 * done). While the season takes no registrations (`registerClosed`) the last step is marked closed,
 * never current: the path ends at the saved stats.
 */
export function ProgressSteps({ step, registerClosed = false }: { step: number; registerClosed?: boolean }) {
  return (
    <ol className="progress-steps" aria-label="Registration progress">
      {STEP_LABELS.map((label, i) => {
        const n = i + 1
        const reached = n < step ? 'done' : n === step ? 'current' : 'todo'
        const state = reached !== 'done' && registerClosed && n === STEP_LABELS.length ? 'closed' : reached
        return (
          <li key={label} className={`step step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="step-dot" aria-hidden="true">
              {state === 'done' ? '✓' : state === 'closed' ? '–' : n}
            </span>
            <span className="step-label">
              {label}
              {state === 'closed' ? <span className="step-note"> (closed)</span> : null}
              <span className="sr-only">{state === 'done' ? ' (done)' : state === 'current' ? ' (current step)' : ''}</span>
            </span>
          </li>
        )
      })}
    </ol>
  )
}
