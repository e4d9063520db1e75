import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api-client'
import type { Places } from '../types'
import { adminPath, registrationsKey } from './registrations'

/** Opens the check-in until `deadline` (an ISO time), moves it, or with null takes the window away. */
export const setCheckin = (tournament: string, deadline: string | null) =>
  request<{ places: Places }>(`${adminPath(tournament)}/checkin`, { method: 'PUT', body: { deadline } })

export function useSetCheckin(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (deadline: string | null) => setCheckin(tournament, deadline),
    onSuccess: () => qc.invalidateQueries({ queryKey: registrationsKey(tournament) }),
  })
}
