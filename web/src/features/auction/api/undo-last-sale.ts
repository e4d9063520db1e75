// POST /admin/tournaments/{name}/auction/undo: the most recent sale is voided (organisers).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Lot } from '../types'
import { adminPath, readAgain } from './flow-keys'

export function useUndoLastSale(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<{ lot: Lot }>(`${adminPath(tournament)}/undo`),
    onSuccess: () => readAgain(qc, tournament),
  })
}
