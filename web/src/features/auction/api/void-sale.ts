import { api } from '@/lib/api-client'
import type { Lot } from '../types'
import { adminPath, useAuctionAdminWrite } from './admin'

/** Undoes a sale while the auction runs: the purse is paid back, the player returns to the pool. */
export const voidSale = (tournament: string, lotId: number) => api.post<{ lot: Lot }>(`${adminPath(tournament)}/auction/lots/${lotId}/void`)

export const useVoidSale = (tournament: string) => useAuctionAdminWrite(tournament, (lotId: number) => voidSale(tournament, lotId))
