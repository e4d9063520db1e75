import { dateOf } from '@/lib/time'
import { Avatar } from '@/components/ui/avatar'
import { KartImage } from '@/components/ui/kart-image'
import { Modal } from '@/components/ui/modal'
import { formatKd, killsDeaths } from '../lib/registrations-reducer'
import type { Player } from '../types'
import { BadgeList } from './player-card'

export function PlayerModal({ player, onClose }: { player: Player | null; onClose: () => void }) {
  return (
    <Modal open={!!player} onClose={onClose} title={player?.name ?? 'Player'} className="player-modal">
      {player ? (
        <div className="player-detail">
          <div className="player-detail-head">
            <Avatar src={player.image} name={player.name} size={72} />
            <div>
              {player.hidden ? null : (
                <p className="muted">
                  Discord: {player.discord_id || 'not linked'}{' '}
                  {player.discord_id ? (player.is_discord_verified ? '(verified)' : '(unverified)') : ''}
                </p>
              )}
              <p className="muted">Registered {dateOf(player.created_at)}</p>
            </div>
          </div>
          {player.hidden ? (
            <p className="muted">{player.name} keeps their profile hidden: their name and registration alone are shown.</p>
          ) : (
            <PlayerFigures player={player} />
          )}
        </div>
      ) : null}
    </Modal>
  )
}

/** A shown card's kart, figures, blurb and badges. */
function PlayerFigures({ player }: { player: Player }) {
  const kd = killsDeaths(player)
  return (
    <>
      <KartImage src={player.cart_image} alt={`${player.name}'s kart`} className="stats-kart" />
      <dl className="stats-grid">
        <div className="stat">
          <dt>K/D ratio</dt>
          <dd>{formatKd(player.kd)}</dd>
        </div>
        <div className="stat">
          <dt>Games played</dt>
          <dd>{player.games_played ? player.games_played : '—'}</dd>
        </div>
        <div className="stat">
          <dt>Level</dt>
          <dd>{player.level ?? 0}</dd>
        </div>
        <div className="stat">
          <dt>Kills</dt>
          <dd>{kd.kills}</dd>
        </div>
        <div className="stat">
          <dt>Deaths</dt>
          <dd>{kd.deaths}</dd>
        </div>
        <div className="stat">
          <dt>SKID</dt>
          <dd>{player.s_id || 'N/A'}</dd>
        </div>
      </dl>
      {player.description ? <p>{player.description}</p> : null}
      <BadgeList badges={player.badges} />
    </>
  )
}
