// Every team's purse left and roster, as the auction changes them.
import { memo } from 'react'
import type { LeagueTeam } from '../types'
import { credits, teamTitle } from './bits'

type Props = {
  teams: LeagueTeam[]
  /** The team holding the high bid on the open lot. */
  leading?: string | null
  /** The signed-in captain's team. */
  own?: string | null
  compact?: boolean
}

export function TeamPurse({ team }: { team: LeagueTeam }) {
  const share = team.purse > 0 ? Math.max(0, Math.min(1, team.purse_left / team.purse)) : 0
  return (
    <div className="purse">
      <span className="purse-left" data-testid={`purse-${team.id}`}>
        {credits(team.purse_left)}
      </span>
      <span className="purse-of muted">left of {credits(team.purse)}</span>
      <span className="purse-bar" aria-hidden="true">
        <span style={{ transform: `scaleX(${share})` }} />
      </span>
    </div>
  )
}

/** The bought players, the open slots (one line each, or one for all when compact), then the substitutes. */
export function Roster({ team, compact = false }: { team: LeagueTeam; compact?: boolean }) {
  const open = Math.max(0, team.slots - team.players.length)
  return (
    <ol className="roster" aria-label={`${teamTitle(team)} roster`} data-testid={`roster-${team.id}`}>
      {team.players.map((p) => (
        <li key={p.user_id}>
          <span className="roster-name">{p.name}</span>
          <span className="roster-tier">T{p.tier}</span>
          <span className="roster-price">{credits(p.price)}</span>
        </li>
      ))}
      {compact && open > 0 ? (
        <li className="roster-open">
          <span className="roster-name">{open === 1 ? '1 open slot' : `${open} open slots`}</span>
        </li>
      ) : (
        Array.from({ length: open }, (_, i) => (
          <li key={`open-${i}`} className="roster-open">
            <span className="roster-name">Open slot</span>
          </li>
        ))
      )}
      {(team.substitutes ?? []).map((p) => (
        <li key={p.user_id} className="roster-sub">
          <span className="roster-name">
            {p.name} <span className="sub-tag">Sub</span>
          </span>
          <span className="roster-tier">T{p.tier}</span>
          <span className="roster-price">{credits(p.price)}</span>
        </li>
      ))}
    </ol>
  )
}

/** One team's card, memoised by its data: a bid re-renders only the teams whose lead changed. */
const BoardTeam = memo(function BoardTeam({ team: t, leading, own, compact }: { team: LeagueTeam; leading: boolean; own: boolean; compact: boolean }) {
  return (
    <li className={`board-team ${leading ? 'is-leading' : ''} ${own ? 'is-own' : ''}`} data-team={t.id}>
      <div className="board-head">
        <span className="team-chip team-chip-lg">{t.id}</span>
        <div className="board-name">
          <strong>{teamTitle(t)}</strong>
          <small className="muted">{t.captain ? `Captain ${t.captain.name}` : 'No captain yet'}</small>
        </div>
        {leading ? <span className="leading-tag">Leading</span> : null}
      </div>
      <TeamPurse team={t} />
      <p className="board-slots muted">
        {t.players.length}/{t.slots} players
        {t.substitutes?.length ? ` + ${t.substitutes.length} sub${t.substitutes.length > 1 ? 's' : ''}` : ''} · max bid{' '}
        {t.free_slots > 0 ? credits(t.max_bid) : '—'}
      </p>
      <Roster team={t} compact={compact} />
    </li>
  )
})

export const TeamsBoard = memo(function TeamsBoard({ teams, leading = null, own = null, compact = false }: Props) {
  return (
    <ul className={`teams-board ${compact ? 'is-compact' : ''}`} aria-label="Teams">
      {teams.map((t) => (
        <BoardTeam key={t.id} team={t} leading={t.id === leading} own={t.id === own} compact={compact} />
      ))}
    </ul>
  )
})
