import { Avatar } from '@/components/ui/avatar'
import { TeamBadge } from '@/components/ui/team-badge'
import type { Team } from '../api/teams'

export const TEAM_SLOTS = 5

export function TeamCard({ team }: { team: Team }) {
  const five = team.players.filter((p) => !p.substitute)
  const subs = team.players.filter((p) => p.substitute)
  const slots = Array.from({ length: Math.max(TEAM_SLOTS, five.length) }, (_, i) => five[i] ?? null)
  const total = team.players.reduce((s, p) => s + (Number(p.credits) || 0), 0)
  return (
    <article className="team-card" aria-labelledby={`team-${team.id}`}>
      <header className="team-head">
        <TeamBadge letter={team.letter} logo={team.logo} size={48} />
        <div>
          <h3 id={`team-${team.id}`}>{team.name || `Team ${team.letter}`}</h3>
          <p className="muted">Team {team.letter}</p>
        </div>
      </header>
      <div className="team-captain">
        {team.captain ? (
          <>
            <Avatar src={team.captain.image} name={team.captain.name} size={36} />
            <span>
              <small>Captain</small>
              {team.captain.name}
            </span>
          </>
        ) : (
          <span className="muted">Captain to be announced</span>
        )}
      </div>
      <ol className="team-roster" aria-label={`${team.name || team.letter} players`}>
        {slots.map((p, i) =>
          p ? (
            <li key={p.id}>
              <span>{p.name}</span>
              <span className="credits">{p.credits} cr</span>
            </li>
          ) : (
            <li key={`open-${i}`} className="open-slot">
              <span>Open slot</span>
              <span className="credits">—</span>
            </li>
          ),
        )}
        {subs.map((p) => (
          <li key={p.id} className="sub-slot">
            <span>
              {p.name} <span className="sub-tag">Sub</span>
            </span>
            <span className="credits">{p.credits} cr</span>
          </li>
        ))}
      </ol>
      <p className="team-total">
        Total <strong>{total}</strong> credits
      </p>
    </article>
  )
}
