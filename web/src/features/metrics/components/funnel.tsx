import { useState } from 'react'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { useRemind } from '../api/remind'
import { ago, percent, span } from '../lib/format'
import type { Dashboard, FunnelStep, ReminderResult, StepName, StuckPlayer } from '../types'
import { LineChart } from './line-chart'

const DETAIL_LABELS: Record<string, string> = {
  typed: 'typed',
  proven: 'proven',
  gemini: 'read by Gemini',
  offline: 'read offline',
  confirmed: 'read, then confirmed',
  read: 'read',
  waitlisted: 'waitlisted',
}

function detail(step: FunnelStep) {
  const parts = Object.entries(step.detail ?? {})
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${step.step === 'registered' && k === 'confirmed' ? 'confirmed' : (DETAIL_LABELS[k] ?? k)}`)
  return parts.join(' · ')
}

/** The funnel: each step's count as a bar against the sign-ups, how long it took, who stopped before it. */
export function Funnel({ dashboard }: { dashboard: Dashboard }) {
  const steps = dashboard.funnel
  const top = Math.max(1, steps[0]?.count ?? 0)
  return (
    <section className="admin-card metric-funnel" aria-labelledby="funnel-title">
      <div className="card-head">
        <h2 id="funnel-title">Sign-up funnel</h2>
        <p className="muted small">
          Accounts made since the window began{dashboard.funnel_deleted ? `; ${dashboard.funnel_deleted} deleted since, counted apart` : ''}.
        </p>
      </div>
      <ol className="funnel-steps">
        {steps.map((s) => (
          <li key={s.step} className={s.open ? 'funnel-step' : 'funnel-step closed'} data-testid={`funnel-${s.step}`}>
            <div className="funnel-label">
              <span>{s.label}</span>
              <b>{s.count}</b>
            </div>
            <div className="funnel-bar" aria-hidden="true">
              <span style={{ width: `${(100 * s.count) / top}%` }} />
            </div>
            <p className="funnel-facts muted small">
              {s.step === 'signed_up' ? 'every account' : `${percent(s.count / top)} of sign-ups`}
              {s.median_seconds !== null ? ` · median ${span(s.median_seconds)} from the step before` : ''}
              {s.open ? '' : ' · no check-in opened'}
              {detail(s) ? ` · ${detail(s)}` : ''}
            </p>
          </li>
        ))}
      </ol>
      <LineChart
        title="Steps taken a day"
        dates
        format={(v) => String(Math.round(v))}
        series={(['signed_up', 'registered'] as StepName[]).map((step) => ({
          name: steps.find((s) => s.step === step)?.label ?? step,
          className: `series-${step}`,
          points: dashboard.funnel_daily.map((d) => ({ at: `${d.day}T12:00:00Z`, value: d.steps[step] ?? 0 })),
        }))}
      />
      <Stuck dashboard={dashboard} />
    </section>
  )
}

const REACH: Record<string, string> = { email: 'e-mail', push: 'push', discord: 'Discord DM' }

/** Who stopped before each step, the longest stopped first, with a reminder for them. */
function Stuck({ dashboard }: { dashboard: Dashboard }) {
  const remind = useRemind(dashboard.tournament)
  const [result, setResult] = useState<{ step: StepName; out: ReminderResult } | null>(null)
  const lists = dashboard.funnel.filter((s) => (dashboard.stuck[s.step]?.length ?? 0) > 0)
  if (lists.length === 0) return <p className="muted">Nobody is stopped before a step.</p>
  return (
    <div className="stuck-lists">
      <h3>Stopped before a step</h3>
      {lists.map((s) => {
        const players = dashboard.stuck[s.step] as StuckPlayer[]
        const reachable = players.filter((p) => p.reach.length > 0)
        return (
          <details key={s.step} className="stuck-step" data-testid={`stuck-${s.step}`}>
            <summary>
              <b>{s.stuck}</b> before “{s.label}”{players.length < s.stuck ? ` (the ${players.length} stopped longest)` : ''}
            </summary>
            <ul className="stuck-players">
              {players.map((p) => (
                <li key={p.user_id}>
                  <span className="stuck-name">
                    {p.name}
                    {p.discord_verified ? '' : <small className="muted"> (unverified)</small>}
                    <small className="muted"> · #{p.user_id}</small>
                  </span>
                  <span className="muted small">since {ago(p.since)}</span>
                  <span className="small">{p.reach.length ? p.reach.map((r) => REACH[r] ?? r).join(', ') : <em className="muted">no channel reaches them</em>}</span>
                  {p.reminded_at ? <span className="muted small">reminded {ago(p.reminded_at)}</span> : null}
                </li>
              ))}
            </ul>
            {s.step === 'verified' ? (
              <p className="muted small">Unverified addresses get no reminder: the address may not be the player’s.</p>
            ) : (
              <ActionButton
                className="btn btn-ghost btn-sm"
                disabled={reachable.length === 0}
                pending={remind.isPending && remind.variables?.step === s.step}
                pendingLabel="Sending…"
                onClick={() =>
                  remind.mutate({ step: s.step, userIds: reachable.map((p) => p.user_id) }, { onSuccess: (out) => setResult({ step: s.step, out }) })
                }
              >
                Remind {reachable.length} {reachable.length === 1 ? 'player' : 'players'}
              </ActionButton>
            )}
            {result?.step === s.step ? <ReminderOutcome out={result.out} /> : null}
          </details>
        )
      })}
      <ErrorMessage error={remind.error} fallback="The reminders could not be sent." />
    </div>
  )
}

function ReminderOutcome({ out }: { out: ReminderResult }) {
  const why = new Map<string, number>()
  for (const s of out.skipped) why.set(s.reason, (why.get(s.reason) ?? 0) + 1)
  return (
    <Message kind="success">
      {`Reminded ${out.sent.length}.`}
      {[...why].map(([reason, n]) => ` ${n} not: ${reason}.`).join('')}
    </Message>
  )
}
