import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { adminTournamentPath, leagueKey, seasonsKey } from './league'

/** Moves the season to completed: its champion and badges are given. */
export const completeSeason = (tournament: string) =>
  api.post<{ name: string; status: string }>(`${adminTournamentPath(tournament)}/status`, { status: 'completed' })

export function useCompleteSeason(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => completeSeason(tournament),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: seasonsKey }), qc.invalidateQueries({ queryKey: leagueKey(tournament) })]),
  })
}
