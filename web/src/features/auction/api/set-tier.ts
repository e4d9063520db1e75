import { request } from '@/lib/api-client'
import { adminPath, useAuctionAdminWrite } from './admin'

/** `tier` 0 goes back to the tier of the player's stats. */
export const setTier = (tournament: string, userId: number, tier: number) =>
  request<{ player: unknown }>(`${adminPath(tournament)}/players/${userId}/tier`, { method: 'PUT', body: { tier } })

export const useSetTier = (tournament: string, userId: number) => useAuctionAdminWrite(tournament, (tier: number) => setTier(tournament, userId, tier))
