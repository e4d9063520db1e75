import type { Target } from '../types'

/** The deck's goals, each green (met), red (missed) or grey (nothing measured yet). */
export function Targets({ targets }: { targets: Target[] }) {
  return (
    <ul className="metric-targets" aria-label="Goals">
      {targets.map((t) => {
        const state = t.ok === null ? 'none' : t.ok ? 'met' : 'missed'
        return (
          <li key={t.id} className={`metric-target ${state}`} data-testid={`target-${t.id}`}>
            <b>{t.display}</b>
            <span>{t.label}</span>
            <small>
              goal {t.goal} · <span className="target-state">{state === 'none' ? 'no data yet' : state}</span>
            </small>
          </li>
        )
      })}
    </ul>
  )
}
