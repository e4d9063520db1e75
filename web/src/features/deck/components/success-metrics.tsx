// The "Success Metrics & Goals" slide: the deck's goals with what the site measures now
// (GET /api/metrics/summary, the figures /admin/metrics shows organisers), each marked met or
// missed. While the figures load, or if they cannot, the slide shows the goals alone.
import { useMetricsSummary, type Goal } from '../api/summary'

/** The goals as the deck states them, in its order: what the slide shows before any figure. */
export const GOALS: Pick<Goal, 'id' | 'goal' | 'label'>[] = [
  { id: 'participants', goal: '32', label: 'tournament participants' },
  { id: 'registered_users', goal: '100+', label: 'registered users' },
  { id: 'flow_completion', goal: '80%+', label: 'complete the 4-step flow' },
  { id: 'discord_linked', goal: '90%+', label: 'Discord linked' },
  { id: 'page_load', goal: '< 3 s', label: 'page load' },
  { id: 'api_response', goal: '< 500 ms', label: 'API response' },
  { id: 'uptime', goal: '99.9%', label: 'uptime' },
  { id: 'error_rate', goal: '< 1%', label: 'error rate' },
]

export function SuccessMetrics() {
  const { data } = useMetricsSummary()
  const measured = new Map((data?.targets ?? []).map((t) => [t.id, t]))
  return (
    <div className="metrics">
      {GOALS.map((g) => {
        const t = measured.get(g.id)
        const state = t?.ok === true ? 'met' : t?.ok === false ? 'missed' : ''
        return (
          <div key={g.id} className={state} data-testid={`goal-${g.id}`}>
            <b>{g.goal}</b>
            <span>{g.label}</span>
            {t && t.value !== null ? (
              <small>
                now {t.display} {state === 'met' ? '✓' : '✗'}
              </small>
            ) : null}
          </div>
        )
      })}
    </div>
  )
}
