import { useState } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useFadeIn } from '@/lib/use-fade-in'
import { useRegistrations } from '../api/registrations'
import type { Player } from '../types'
import { PlayerCard } from './player-card'
import { PlayerModal } from './player-modal'

/** The registered players, live: cards appear and leave without a reload. */
export function RegisteredPlayers({ tournament, limit }: { tournament: string; limit?: number }) {
  const { data, isLoading, isError, refetch } = useRegistrations(tournament)
  const [open, setOpen] = useState<Player | null>(null)
  const fadeRef = useFadeIn()

  if (isLoading) return <Spinner label="Loading players" />
  if (isError || !data)
    return (
      <EmptyState title="The player list could not be loaded.">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => refetch()}>
          Try again
        </button>
      </EmptyState>
    )
  if (data.players.length === 0)
    return <EmptyState title="No players registered yet.">Be the first: press REGISTER and upload your stats.</EmptyState>

  const shown = limit ? data.players.slice(-limit).reverse() : data.players
  return (
    <>
      <p className="count-line" aria-live="polite">
        <strong data-testid="player-count">{data.count}</strong> {data.count === 1 ? 'player' : 'players'} registered for{' '}
        {data.tournament}
      </p>
      <ul className="player-grid" data-testid="player-grid">
        {shown.map((p) => (
          <PlayerCard key={p.id} player={p} onOpen={setOpen} cardRef={fadeRef} />
        ))}
      </ul>
      <PlayerModal player={open} onClose={() => setOpen(null)} />
    </>
  )
}
