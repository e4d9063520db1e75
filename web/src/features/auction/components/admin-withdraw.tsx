// An organiser withdraws a player: from the queue (registration, auction) or a team's roster (auction,
// matches). The confirmation says what becomes of their place and slot before anything is done.
import { useId, useState } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage, TextField } from '@/components/ui/form'
import { useWithdrawPlayer } from '../api/withdraw-player'
import type { LeagueTeam, LeagueTeamPlayer, TournamentStatus } from '../types'
import { credits, teamTitle } from './bits'

/** A player who may take a withdrawn player's slot: one on no team, or waiting (promoted then). */
export type Replacement = { id: number; name: string; waiting?: boolean }

/** What withdrawing `name` does, in the phase the season is in (from `team` when they are on one). */
export function withdrawalText(status: TournamentStatus, name: string, team?: { title: string; price: number; substitute?: boolean }): string[] {
  if (status === 'registration') {
    return [`${name} leaves the season, as if they had unregistered: a confirmed place they free goes to the first player waiting.`]
  }
  if (!team) return [`${name} leaves the season: they can no longer be put up or signed.`]
  if (status === 'auction') {
    return [`The sale is voided: ${team.title} gets its ${credits(team.price)} back, and ${name} leaves the season.`]
  }
  return [
    `${name} leaves ${team.title} and the lineups of its matches still to play; what they played stands (their kills count for the Red Cap).`,
    `Their ${team.substitute ? 'bench place' : 'slot'} goes to the replacement picked below, at the same price, or stays empty (its ${credits(team.price)} go back to the purse).`,
  ]
}

type Props = {
  tournament: string
  status: TournamentStatus
  player: { user_id: number; name: string }
  team?: LeagueTeam
  slot?: LeagueTeamPlayer & { substitute?: boolean }
  /** Who may take the slot (matches phase only). */
  replacements?: Replacement[]
}

export function WithdrawPlayer({ tournament, status, player, team, slot, replacements = [] }: Props) {
  const [reason, setReason] = useState('')
  const [replacement, setReplacement] = useState(0)
  const withdraw = useWithdrawPlayer(tournament)
  const selectId = useId()
  const onTeam = team && slot ? { title: teamTitle(team), price: slot.price, substitute: slot.substitute } : undefined
  const canReplace = status === 'matches' && !!onTeam
  return (
    <span className="withdraw-player">
      <ConfirmAction
        label="Withdraw"
        question={`Withdraw ${player.name} from ${tournament}?`}
        detail={withdrawalText(status, player.name, onTeam).map((l) => (
          <p key={l}>{l}</p>
        ))}
        confirmLabel={`Withdraw ${player.name}`}
        cancelLabel="Keep them"
        busyLabel="Withdrawing…"
        className="btn btn-danger-ghost btn-sm"
        onConfirm={() =>
          withdraw.mutateAsync({ userId: player.user_id, reason, replacement: canReplace ? replacement : 0 }).then(() => {
            setReason('')
            setReplacement(0)
          })
        }
      >
        <TextField label="Reason (kept in the audit log)" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. moved abroad" />
        {canReplace ? (
          <div className="field">
            <label htmlFor={selectId}>Replacement</label>
            <select id={selectId} value={replacement} onChange={(e) => setReplacement(Number(e.target.value))}>
              <option value={0}>Nobody: the slot stays empty</option>
              {replacements.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                  {r.waiting ? ' (waitlist)' : ''}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </ConfirmAction>
      <ErrorMessage error={withdraw.error} fallback="The player could not be withdrawn." />
    </span>
  )
}

/** Every team's roster with "Withdraw" beside each player (the auction and the matches phases). */
export function RostersAdmin({ tournament, status, teams, replacements }: { tournament: string; status: TournamentStatus; teams: LeagueTeam[]; replacements: Replacement[] }) {
  if (status !== 'auction' && status !== 'matches') return null
  return (
    <section className="admin-card match-panel rosters-admin" aria-labelledby="rosters-title">
      <h2 id="rosters-title">Rosters</h2>
      <p className="muted small">
        A player who drops out is withdrawn here (audited).{' '}
        {status === 'matches' ? 'Their slot goes to a replacement you pick, or stays empty.' : 'During the auction the sale is voided.'} A captain is not
        withdrawn alone.
      </p>
      <ul className="rosters-list">
        {teams
          .filter((t) => t.captain)
          .map((t) => (
            <li key={t.id} data-team={t.id}>
              <h3>
                {teamTitle(t)} <small className="muted">· captain {t.captain?.name}</small>
              </h3>
              {t.players.length + (t.substitutes?.length ?? 0) === 0 ? <p className="muted small">Nobody bought yet.</p> : null}
              <ul className="queue-list">
                {[...t.players.map((p) => ({ ...p, substitute: false })), ...(t.substitutes ?? []).map((p) => ({ ...p, substitute: true }))].map((p) => (
                  <li key={p.user_id} data-player={p.user_id}>
                    <span className="queue-name">
                      <strong>
                        {p.name}
                        {p.substitute ? <span className="sub-tag">Sub</span> : null}
                      </strong>
                      <small className="muted">
                        T{p.tier} · {credits(p.price)}
                      </small>
                    </span>
                    <WithdrawPlayer tournament={tournament} status={status} player={p} team={t} slot={p} replacements={replacements} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
      </ul>
    </section>
  )
}
