// PUT /admin/tournaments/{name}/auction/turns: the captains nominate in turn, or not (organisers).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api-client'
import type { AuctionFlow } from '../types'
import { adminPath, readAgain } from './flow-keys'

/** `seconds` 0 is the server's default (30). */
export type TurnsInput = { enabled: boolean; seconds: number }

export function useSetTurns(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: TurnsInput) => request<{ flow: AuctionFlow }>(`${adminPath(tournament)}/turns`, { method: 'PUT', body }),
    onSuccess: () => readAgain(qc, tournament),
  })
}
