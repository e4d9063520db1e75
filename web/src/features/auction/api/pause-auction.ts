// POST /admin/tournaments/{name}/auction/pause: the open lot's countdown and the turn stop (organisers).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { AuctionFlow, Lot } from '../types'
import { adminPath, readAgain } from './flow-keys'

export type FlowNews = { tournament: string; flow: AuctionFlow; lot: Lot | null }

export function usePauseAuction(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<FlowNews>(`${adminPath(tournament)}/pause`),
    onSuccess: () => readAgain(qc, tournament),
  })
}
