// POST /admin/tournaments/{name}/auction/resume: the countdowns run again for the time they had left (organisers).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { adminPath, readAgain } from './flow-keys'
import type { FlowNews } from './pause-auction'

export function useResumeAuction(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<FlowNews>(`${adminPath(tournament)}/resume`),
    onSuccess: () => readAgain(qc, tournament),
  })
}
