// The signed-in player's own writes on a tournament (register, unregister, check in), apart from
// the lists' reads so that a page showing the lists does not load the mutation code.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { userQueryKey } from '@/lib/auth'
import type { Entry } from '../types'

export type RegisterResponse = Entry & { success: boolean }

/** The signed-in player's own write (register, unregister, check in): their account and the tournament's lists are read again. */
export function usePlayerWrite(tournament: string, write: (tournamentName: string) => Promise<RegisterResponse>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => write(tournament),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: userQueryKey })
      void qc.invalidateQueries({ queryKey: ['tournament', tournament] })
    },
  })
}
