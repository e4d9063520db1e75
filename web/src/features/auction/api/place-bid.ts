import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Lot } from '../types'
import { tournamentPath } from './auction'

export function placeBid(tournament: string, lotId: number, amount: number) {
  return api.post<{ lot: Lot }>(`${tournamentPath(tournament)}/auction/bids`, { lotId, amount })
}

/** A captain's bid. Nothing is read again: the bid comes back to every page as a live event of topic `teams`. */
export function usePlaceBid(tournament: string) {
  return useMutation({ mutationFn: ({ lotId, amount }: { lotId: number; amount: number }) => placeBid(tournament, lotId, amount) })
}
