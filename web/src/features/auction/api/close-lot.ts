import { api } from '@/lib/api-client'
import type { Lot } from '../types'
import { adminPath, useAuctionAdminWrite } from './admin'

/** Closes the lot before its deadline: it sells to the high bid, or the player goes back unsold. */
export const closeLot = (tournament: string, lotId: number) => api.post<{ lot: Lot }>(`${adminPath(tournament)}/auction/lots/${lotId}/close`)

export const useCloseLot = (tournament: string) => useAuctionAdminWrite(tournament, (lotId: number) => closeLot(tournament, lotId))
