// GET /api/tournaments/{name}/prizes: the season's prize pool, its funding and its payouts' states.
import { useQuery } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api-client'

export type PrizeLine = { place?: number; label: string; amount: number }
export type PublicPayout = { label: string; team?: string; amount: number; state: 'pending' | 'paid' | 'received' }
export type Prizes = {
  tournament: string
  currency: string
  exponent: number
  pool: number
  split: PrizeLine[]
  awards: PrizeLine[]
  team_share: 'even' | 'captain'
  entry_fee: number
  payments: boolean
  funding: { sources: Record<string, number>; total: number; unfunded: number }
  ledger: { paid_out: number; fees: number; balance: number }
  payouts: PublicPayout[]
}

export const prizesKey = (t: string) => ['prizes', t] as const

/** The season's prizes; null when it has none (404). */
export function usePrizes(tournament: string) {
  return useQuery({
    queryKey: prizesKey(tournament),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<Prizes>(`/tournaments/${encodeURIComponent(tournament)}/prizes`, signal)
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null
        throw err
      }
    },
  })
}
