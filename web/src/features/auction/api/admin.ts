// The organisers' calls of the league (spec/product.md §9); the server refuses everyone else.
import { useQuery } from '@tanstack/react-query'
import { api, request } from '@/lib/api-client'
import type { TournamentStatus } from '@/features/tournament/types'
import type { AuditEntry, LeagueTeam, Lot } from '../types'

const admin = (tournament: string) => `/admin/tournaments/${encodeURIComponent(tournament)}`

export const setPhase = (tournament: string, status: TournamentStatus) =>
  api.post<{ name: string; status: TournamentStatus }>(`${admin(tournament)}/status`, { status })

export const setCaptain = (tournament: string, team: string, userId: number) =>
  request<{ team: LeagueTeam }>(`${admin(tournament)}/teams/${team}/captain`, { method: 'PUT', body: { userId } })

/** `tier` 0 goes back to the tier of the player's stats. */
export const setTier = (tournament: string, userId: number, tier: number) =>
  request<{ player: unknown }>(`${admin(tournament)}/players/${userId}/tier`, { method: 'PUT', body: { tier } })

export const openLot = (tournament: string, userId: number, basePrice: number) =>
  api.post<{ lot: Lot }>(`${admin(tournament)}/auction/lots`, { userId, basePrice })

export const closeLot = (tournament: string, lotId: number) => api.post<{ lot: Lot }>(`${admin(tournament)}/auction/lots/${lotId}/close`)

export const voidSale = (tournament: string, lotId: number) => api.post<{ lot: Lot }>(`${admin(tournament)}/auction/lots/${lotId}/void`)

export const auditKey = (tournament: string) => ['tournament', tournament, 'audit'] as const

export function useAuditLog(tournament: string, enabled: boolean, limit = 50) {
  return useQuery({
    queryKey: auditKey(tournament),
    queryFn: ({ signal }) =>
      api.get<{ entries: AuditEntry[] }>(`/admin/audit?tournament=${encodeURIComponent(tournament)}&limit=${limit}`, signal),
    enabled,
    staleTime: 0,
  })
}
