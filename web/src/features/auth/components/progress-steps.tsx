import { STEP_LABELS } from '../lib/resume'

/** The four-step progress of the player's path (docs/site.md); `step` is the one in progress (5 = all done). */
export function ProgressSteps({ step }: { step: number }) {
  return (
    <ol className="progress-steps" aria-label="Registration progress">
      {STEP_LABELS.map((label, i) => {
        const n = i + 1
        const state = n < step ? 'done' : n === step ? 'current' : 'todo'
        return (
          <li key={label} className={`step step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="step-dot" aria-hidden="true">
              {state === 'done' ? '✓' : n}
            </span>
            <span className="step-label">
              {label}
              <span className="sr-only">{state === 'done' ? ' (done)' : state === 'current' ? ' (current step)' : ''}</span>
            </span>
          </li>
        )
      })}
    </ol>
  )
}
