import { api } from '@/lib/api-client'
import type { Lot } from '../types'
import { adminPath, useAuctionAdminWrite } from './admin'

export const openLot = (tournament: string, userId: number, basePrice: number) =>
  api.post<{ lot: Lot }>(`${adminPath(tournament)}/auction/lots`, { userId, basePrice })

export const useOpenLot = (tournament: string) =>
  useAuctionAdminWrite(tournament, ({ userId, basePrice }: { userId: number; basePrice: number }) => openLot(tournament, userId, basePrice))
