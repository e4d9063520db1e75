// What each phase move would meet now (GET /api/admin/tournaments/{name}/status): the page offers a move
// only when the server would take it, and lists in its confirmation what forcing it overrides.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { api } from '@/lib/api-client'
import { frameBatcher } from '@/lib/frame-batch'
import { useLiveTopic } from '@/lib/live'
import type { TournamentStatus } from '../types'
import { adminPath } from './admin'

export type MoveOption = {
  to: TournamentStatus
  /** A move back a phase. */
  back: boolean
  /** The server takes the move (with force when `force`). */
  allowed: boolean
  /** Allowed only with force: `warnings` are what it overrides. */
  force: boolean
  refusals: string[]
  warnings: string[]
}

export type PhaseMoves = { tournament: string; status: TournamentStatus; moves: MoveOption[] }

export const phaseMovesKey = (tournament: string) => ['tournament', tournament, 'moves'] as const

/**
 * The season's possible moves, read again whenever anything they depend on may have changed: the
 * phase, a registration, a lot or a roster (teams), the fixtures or a result (bracket).
 */
export function usePhaseMoves(tournament: string, enabled = true) {
  const qc = useQueryClient()
  const key = phaseMovesKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<PhaseMoves>(`${adminPath(tournament)}/status`, signal),
    enabled: enabled && !!tournament,
  })
  const refetch = useMemo(() => frameBatcher<true>(() => void qc.invalidateQueries({ queryKey: phaseMovesKey(tournament) })), [qc, tournament])
  const live = { onEvent: () => refetch(true), onResync: () => refetch(true) }
  const on = { enabled: query.data !== undefined }
  useLiveTopic('registrations', live, on)
  useLiveTopic('teams', live, on)
  useLiveTopic('bracket', live, on)
  return query
}
