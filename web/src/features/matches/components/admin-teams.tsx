// The teams of a season on /admin/matches: each with its seed, and "Withdraw" for a team that stops showing
// up. The confirmation says what becomes of its matches (a forfeit to whoever meets it) before anything is done.
import { useState } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage, TextField } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { useWithdrawTeam } from '../api/withdraw-team'
import { teamName } from '../lib/match-model'
import { withdrawalOutcome } from '../lib/undo-model'
import type { Match, Seed } from '../types'

function WithdrawTeam({ tournament, seed, format, matches, onDone }: { tournament: string; seed: Seed; format: string; matches: Match[]; onDone: (text: string) => void }) {
  const [reason, setReason] = useState('')
  const withdraw = useWithdrawTeam(tournament)
  const team = seed.team.id
  const outcome = withdrawalOutcome(team, format, matches)
  return (
    <>
      <ConfirmAction
        label="Withdraw"
        question={`Withdraw ${teamName(seed.team)} from ${tournament}?`}
        detail={outcome.lines.map((l) => (
          <p key={l}>{l}</p>
        ))}
        confirmLabel={`Withdraw team ${team}`}
        cancelLabel="Keep the team"
        busyLabel="Withdrawing…"
        className="btn btn-danger-ghost btn-sm"
        onConfirm={() =>
          withdraw.mutateAsync({ team, reason }).then((w) => {
            setReason('')
            onDone(
              `Team ${team} is withdrawn: ${w.forfeited.length === 1 ? '1 match' : `${w.forfeited.length} matches`} forfeited to the opponents` +
                (w.to_rule.length ? `, ${w.to_rule.length} waiting for your ruling.` : '.'),
            )
          })
        }
      >
        <TextField label="Reason (kept in the audit log)" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. stopped showing up" />
      </ConfirmAction>
      <ErrorMessage error={withdraw.error} fallback="The team could not be withdrawn." />
    </>
  )
}

/** Every team of the season with a captain; "Withdraw" for those still in, in the matches phase. */
export function TeamsAdmin({ tournament, phase, seeds, format, matches }: { tournament: string; phase: string; seeds: Seed[]; format: string; matches: Match[] }) {
  const [done, setDone] = useState('')
  if (seeds.length === 0) return null
  return (
    <section className="match-panel" aria-label="Teams">
      <h2>Teams</h2>
      <p className="muted small">
        A team that stops showing up is withdrawn: its matches go to its opponents by forfeit, and the bracket still reaches its champion.
      </p>
      <ul className="queue team-admin-list">
        {seeds.map((s) => (
          <li key={s.team.id} className="queue-item" data-team={s.team.id} data-withdrawn={s.withdrawn ? 'true' : undefined}>
            <div className="queue-head">
              <span className="team-letter-sm" aria-hidden="true">
                {s.team.id}
              </span>
              <span className="queue-title">{teamName(s.team)}</span>
              {s.withdrawn ? (
                <span className="status-pill status-withdrawn">Withdrawn</span>
              ) : phase === 'matches' ? (
                <WithdrawTeam tournament={tournament} seed={s} format={format} matches={matches} onDone={setDone} />
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <Message kind="success">{done}</Message>
    </section>
  )
}
