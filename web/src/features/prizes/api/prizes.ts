// GET /api/tournaments/{name}/prizes: the season's prize pool, its funding and its payouts' states.
import { useQuery } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api-client'

/** Money as the server keeps it: a whole count of the season currency's minor unit (cents for
 * EUR, yen for JPY: `exponent` digits), never a fraction; written out by lib/money's formatMoney. */
export type Minor = number

export type PrizeLine = { place?: number; label: string; amount: Minor }
export type PublicPayout = { label: string; team?: string; amount: Minor; state: 'pending' | 'paid' | 'received' }
export type Prizes = {
  tournament: string
  currency: string
  exponent: number
  pool: Minor
  split: PrizeLine[]
  awards: PrizeLine[]
  team_share: 'even' | 'captain'
  entry_fee: Minor
  payments: boolean
  funding: { sources: Record<string, Minor>; total: Minor; unfunded: Minor }
  ledger: { paid_out: Minor; fees: Minor; balance: Minor }
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
