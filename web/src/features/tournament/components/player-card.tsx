import { CrownIcon, FlameIcon, MedalIcon, TrophyIcon } from '@/components/ui/icons'
import { Avatar } from '@/components/ui/avatar'
import { compactCount } from '@/lib/format'
import { formatKd, killsDeaths } from '../lib/registrations-reducer'
import type { Player } from '../types'

export function BadgeIcon({ icon }: { icon: string }) {
  switch (icon?.toLowerCase()) {
    case 'trophy':
      return <TrophyIcon />
    case 'crown':
      return <CrownIcon />
    case 'flame':
      return <FlameIcon />
    default:
      return <MedalIcon />
  }
}

export function BadgeList({ badges }: { badges: Player['badges'] }) {
  if (!badges?.length) return null
  return (
    <ul className="badges" aria-label="Badges">
      {badges.map((b) => (
        <li key={b.id} className="badge" style={{ ['--badge' as string]: b.color || 'var(--color-accent)' }} title={b.name}>
          <BadgeIcon icon={b.icon} /> {b.name}
        </li>
      ))}
    </ul>
  )
}

export function PlayerCard({
  player,
  onOpen,
  cardRef,
  own = false,
  place = 0,
}: {
  player: Player
  onOpen: (p: Player) => void
  cardRef?: (el: HTMLElement | null) => void
  /** The signed-in player's own card: highlighted. */
  own?: boolean
  /** Where the player waits on the waitlist, from 1 (0: confirmed). */
  place?: number
}) {
  return (
    <li
      ref={cardRef}
      className={`player-card ${own ? 'is-own' : ''} ${place ? 'is-waiting' : ''}`}
      data-player-id={player.id}
      data-own={own ? 'true' : undefined}
      data-status={player.status ?? 'confirmed'}
      data-checked-in={player.checked_in_at ? 'true' : undefined}
    >
      {own ? (
        <span className="own-tag" aria-hidden="true">
          You
        </span>
      ) : null}
      {place || player.checked_in_at ? (
        <span className="player-tags">
          {place ? <span className="status-pill status-waitlisted">Waitlist #{place}</span> : null}
          {player.checked_in_at ? <span className="status-pill status-checked-in">✓ Checked in</span> : null}
        </span>
      ) : null}
      <button
        type="button"
        className="player-card-btn"
        onClick={() => onOpen(player)}
        aria-label={`${player.name}${own ? ' (you)' : ''}: details`}
      >
        <span className="player-head">
          <Avatar src={player.image} name={player.name} size={52} />
          <span className="player-id">
            <span className="player-name">
              {player.name}
              {player.is_discord_verified ? (
                <span className="verified" title="Discord verified">
                  <span aria-hidden="true"> ✔</span>
                  <span className="sr-only"> (Discord verified)</span>
                </span>
              ) : null}
            </span>
            <span className="player-sub">{player.hidden ? 'Profile hidden' : `SKID ${player.s_id || 'N/A'}`}</span>
          </span>
        </span>
        {player.hidden ? (
          <span className="player-hidden muted">The player keeps their profile hidden: their name alone is shown.</span>
        ) : (
          <PlayerStats player={player} />
        )}
      </button>
      <BadgeList badges={player.badges} />
    </li>
  )
}

/** A shown card's figures: K/D, games, level, kills and deaths. */
function PlayerStats({ player }: { player: Player }) {
  const { kills, deaths } = killsDeaths(player)
  return (
    <span className="player-stats">
      <span>
        <b>{formatKd(player.kd)}</b>
        <small>K/D</small>
      </span>
      <span>
        {player.games_played ? (
          <b title={String(player.games_played)}>{compactCount(player.games_played)}</b>
        ) : (
          // Older builds' Stats panels do not show games: unknown, not none.
          <b title="Not on the player's screenshot">—</b>
        )}
        <small>Games</small>
      </span>
      <span>
        <b>{player.level ?? 0}</b>
        <small>Level</small>
      </span>
      <span>
        <b title={String(kills)}>{compactCount(kills)}</b>
        <small>Kills</small>
      </span>
      <span>
        <b title={String(deaths)}>{compactCount(deaths)}</b>
        <small>Deaths</small>
      </span>
    </span>
  )
}
