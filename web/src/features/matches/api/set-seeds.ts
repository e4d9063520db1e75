import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api-client'
import type { Bracket } from '../types'
import { adminTournamentPath, bracketKey } from './league'

/** Orders the seeds by hand (team letters, seed 1 first); an empty order goes back to strength. */
export const setSeeds = (tournament: string, order: string[]) =>
  request<Bracket>(`${adminTournamentPath(tournament)}/seeds`, { method: 'PUT', body: { order } })

/** The answer is the bracket with its new seeds. */
export function useSetSeeds(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (order: string[]) => setSeeds(tournament, order),
    onSuccess: (bracket) => qc.setQueryData(bracketKey(tournament), bracket),
  })
}
