// The organisers' calls of the league (docs/league.md); the server refuses everyone else.
import { useInfiniteQuery } from '@tanstack/react-query'
import { api, request } from '@/lib/api-client'
import type { TournamentStatus } from '@/features/tournament/types'
import type { AuditPage, LeagueTeam, Lot } from '../types'

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

/** Every read of the tournament's audit log, whatever its filters: invalidate it to read it again. */
export const auditKey = (tournament: string) => ['tournament', tournament, 'audit'] as const

/** What the audit log is narrowed to: one action (`''` every one), one account (`null` anyone). */
export type AuditFilters = { action: string; actor: number | null }

export const AUDIT_PAGE = 50

/**
 * The tournament's audit log, newest first, a page at a time (`fetchNextPage` is "Load more"). Read
 * again (a live event), the loaded pages are fetched anew from the newest, each from the previous
 * one's cursor, so an entry that arrived meanwhile shows once and none goes missing.
 */
export function useAuditLog(tournament: string, filters: AuditFilters, limit = AUDIT_PAGE) {
  return useInfiniteQuery({
    queryKey: [...auditKey(tournament), filters.action, filters.actor ?? 0],
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams({ tournament, limit: String(limit) })
      if (filters.action) q.set('action', filters.action)
      if (filters.actor) q.set('actor', String(filters.actor))
      if (pageParam) q.set('before', String(pageParam))
      return api.get<AuditPage>(`/admin/audit?${q}`, signal)
    },
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  })
}
