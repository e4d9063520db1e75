import type { Resolution, Target } from '../types'

/**
 * What each goal's figure measures, over which stretch: the API's p95 is over every call of the whole
 * window, where the chart below it draws each hour's (or day's) p95, whose peaks may pass the goal
 * while the window's does not (docs/metrics.md says the same).
 */
const MEASURES: Record<Target['id'], (stretch: Resolution) => string> = {
  participants: () => 'confirmed registrations of the season',
  registered_users: () => 'verified accounts, the organisers’ aside',
  flow_completion: () => 'of the window’s sign-ups, the share registered for the season',
  discord_linked: () => 'of the window’s verified accounts, the share with a proven Discord link',
  page_load: (stretch) =>
    `LCP p75 over the whole window, one page load per browser a day, shown once 20 are in; the chart shows each ${stretch}’s p75 of every load`,
  api_response: (stretch) => `p95 of every API call over the whole window; the chart shows each ${stretch}’s p95`,
  uptime: () => 'minutes of the window with an instance up',
  error_rate: () => '5xx answers among the window’s API calls',
}

/** The deck's goals, each green (met), red (missed) or grey (nothing measured yet), with what it measures. */
export function Targets({ targets, stretch }: { targets: Target[]; stretch: Resolution }) {
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
            {MEASURES[t.id] ? <small className="target-what">{MEASURES[t.id](stretch)}</small> : null}
          </li>
        )
      })}
    </ul>
  )
}
