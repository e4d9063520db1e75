import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Entry } from '../types'
import { adminPath, registrationsKey } from './registrations'

/** Moves a waiting player onto the confirmed list. */
export const promote = (tournament: string, userId: number | string) =>
  api.post<{ entry: Entry }>(`${adminPath(tournament)}/waitlist/${userId}/promote`)

export function usePromote(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (userId: number | string) => promote(tournament, userId),
    onSuccess: () => qc.invalidateQueries({ queryKey: registrationsKey(tournament) }),
  })
}
