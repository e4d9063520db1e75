// One registered player's card, looked up live from the registrations list (the auction's lot).
import { useState, type ReactNode } from 'react'
import { useRegistrations } from '../api/registrations'
import { samePlayer } from '../lib/player-list'
import type { Player } from '../types'
import { PlayerCard } from './player-card'
import { PlayerModalOnDemand } from './player-modal-on-demand'

/** The card of `userId` as the player list shows it, or `fallback` until the list has them. */
export function PlayerSpotlight({ tournament, userId, fallback = null }: { tournament: string; userId: number; fallback?: ReactNode }) {
  const { data } = useRegistrations(tournament, { all: true })
  const [open, setOpen] = useState<Player | null>(null)
  const player = data?.players.find((p) => samePlayer(p.id, userId))
  if (!player) return <>{fallback}</>
  return (
    <>
      <ul className="player-grid spotlight">
        <PlayerCard player={player} onOpen={setOpen} />
      </ul>
      <PlayerModalOnDemand player={open} onClose={() => setOpen(null)} />
    </>
  )
}
