// POST /tournaments/{name}/auction/nominations: a captain puts a player up on their team's turn.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Lot } from '../types'
import { auctionKey } from './auction'
import { captainPath } from './flow-keys'

export function useNominate(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (userId: number) => api.post<{ lot: Lot }>(`${captainPath(tournament)}/nominations`, { userId }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: auctionKey(tournament) }),
  })
}
