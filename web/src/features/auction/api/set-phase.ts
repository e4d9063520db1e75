import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { TournamentStatus } from '../types'
import { adminPath, auditKey } from './admin'
import { auctionKey } from './auction'
import { phaseMovesKey } from './phase-moves'

/** A phase move; `force` makes one that leaves things incomplete (its warnings) all the same. */
export type PhaseMove = { status: TournamentStatus; force?: boolean }

export const setPhase = (tournament: string, { status, force = false }: PhaseMove) =>
  api.post<{ name: string; status: TournamentStatus }>(`${adminPath(tournament)}/status`, force ? { status, force } : { status })

/** Moves the tournament to another phase; every open page follows it live. */
export function useSetPhase(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (move: PhaseMove) => setPhase(tournament, move),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: auctionKey(tournament) })
      void qc.invalidateQueries({ queryKey: auditKey(tournament) })
      void qc.invalidateQueries({ queryKey: phaseMovesKey(tournament) })
    },
  })
}
