import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Bracket, FormatInput } from '../types'
import { adminTournamentPath, leagueKey } from './league'

/** Makes the fixtures: a format and its options (a Swiss stage's rounds and top cut, a grand final reset). */
export const generateFixtures = (tournament: string, input: FormatInput) => api.post<Bracket>(`${adminTournamentPath(tournament)}/bracket`, input)

/** Every read of the league is read again before the write counts as done. */
export function useGenerateFixtures(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: FormatInput) => generateFixtures(tournament, input),
    onSuccess: () => qc.invalidateQueries({ queryKey: leagueKey(tournament) }),
  })
}
