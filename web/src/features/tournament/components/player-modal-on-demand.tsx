// The player's modal loads the first time a card is opened (the lists render without its code),
// then stays mounted so it closes as it opens.
import { lazy, Suspense, useState } from 'react'
import type { Player } from '../types'

const PlayerModal = lazy(() => import('./player-modal').then((m) => ({ default: m.PlayerModal })))

export function PlayerModalOnDemand({ player, onClose }: { player: Player | null; onClose: () => void }) {
  const [wanted, setWanted] = useState(false)
  if (player && !wanted) setWanted(true)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <PlayerModal player={player} onClose={onClose} />
    </Suspense>
  )
}
