// Captains per team: an organiser picks a registered player for each team.
import { useId, useState } from 'react'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { useSetCaptain } from '../api/set-captain'
import type { LeagueTeam } from '../types'
import { teamTitle } from './bits'

export type Candidate = { id: number; name: string }

function CaptainRow({ tournament, team, candidates, disabled }: { tournament: string; team: LeagueTeam; candidates: Candidate[]; disabled: boolean }) {
  const [pick, setPick] = useState('')
  const setCaptain = useSetCaptain(tournament, team.id)
  const busy = setCaptain.isPending
  const id = useId()
  function save() {
    if (pick) setCaptain.mutate(Number(pick), { onSuccess: () => setPick('') })
  }
  return (
    <li className="captain-row">
      <span className="team-chip team-chip-lg">{team.id}</span>
      <span className="captain-now">
        <strong>{teamTitle(team)}</strong>
        <small className="muted">{team.captain ? `Captain: ${team.captain.name}` : 'No captain'}</small>
      </span>
      <label htmlFor={id} className="sr-only">
        New captain of team {team.id}
      </label>
      <select id={id} value={pick} onChange={(e) => setPick(e.target.value)} disabled={disabled || busy}>
        <option value="">{team.captain ? 'Replace with…' : 'Pick a registered player…'}</option>
        {candidates.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <ActionButton className="btn btn-ghost btn-sm" onClick={save} disabled={disabled || !pick} pending={busy} pendingLabel="Saving…">
        Make captain
      </ActionButton>
      {setCaptain.error ? (
        <span className="captain-error">
          <ErrorMessage error={setCaptain.error} fallback="The captain could not be set." />
        </span>
      ) : null}
    </li>
  )
}

export function CaptainsAdmin({
  tournament,
  teams,
  candidates,
  open,
}: {
  tournament: string
  teams: LeagueTeam[]
  /** Registered players who are free to captain (not on a team, not captaining). */
  candidates: Candidate[]
  /** Captains are chosen during registration and the auction. */
  open: boolean
}) {
  return (
    <section className="admin-card" aria-labelledby="captains-title">
      <h2 id="captains-title">Captains</h2>
      {!open ? <p className="muted">Captains are chosen during registration and the auction.</p> : null}
      <ul className="captain-rows">
        {teams.map((t) => (
          <CaptainRow key={t.id} tournament={tournament} team={t} candidates={candidates} disabled={!open} />
        ))}
      </ul>
    </section>
  )
}
