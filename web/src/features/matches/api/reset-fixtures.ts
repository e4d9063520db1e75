import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Bracket, FormatInput } from '../types'
import { generateFixtures } from './generate-fixtures'
import { adminTournamentPath, leagueKey } from './league'

/** A reset of the fixtures as the server answers it (the fixtures it archived left out here). */
export type Reset = { id: number; tournament: string; format: string; matches: number; results: number; forced: boolean; reset_at: string }

/**
 * Resets the fixtures; `force` when matches have results (they are archived with the fixtures, never
 * lost). The server refuses an unforced reset over results with a 409 listing them.
 */
export const resetFixtures = (tournament: string, force: boolean) =>
  api.delete<{ reset: Reset }>(`${adminTournamentPath(tournament)}/bracket${force ? '?force=true' : ''}`).then((d) => d.reset)

export function useResetFixtures(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (force: boolean) => resetFixtures(tournament, force),
    onSettled: () => qc.invalidateQueries({ queryKey: leagueKey(tournament) }),
  })
}

/** Regenerates in one go: the reset, then the fixtures made again in the format given. */
export function useRegenerateFixtures(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ force, input }: { force: boolean; input: FormatInput }): Promise<Bracket> => {
      await resetFixtures(tournament, force)
      return generateFixtures(tournament, input)
    },
    onSettled: () => qc.invalidateQueries({ queryKey: leagueKey(tournament) }),
  })
}
