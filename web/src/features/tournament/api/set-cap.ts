import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api-client'
import type { Places } from '../types'
import { adminPath, registrationsKey } from './registrations'

/** 0 takes the cap away. */
export const setCap = (tournament: string, cap: number) =>
  request<{ places: Places }>(`${adminPath(tournament)}/cap`, { method: 'PUT', body: { cap } })

export function useSetCap(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (cap: number) => setCap(tournament, cap),
    onSuccess: () => qc.invalidateQueries({ queryKey: registrationsKey(tournament) }),
  })
}
