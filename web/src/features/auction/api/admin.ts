// The organisers' calls of the league (docs/league.md); the server refuses everyone else.
// Each call has its file (set-phase, set-captain, set-tier, open-lot, close-lot, void-sale); this one
// holds what they share and the audit log they all write to.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { AuditPage } from '../types'
import { auctionKey } from './auction'

export const adminPath = (tournament: string) => `/admin/tournaments/${encodeURIComponent(tournament)}`

/** An organiser's write of the auction: the auction and its audit log are read again after it. */
export function useAuctionAdminWrite<V, D>(tournament: string, write: (v: V) => Promise<D>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: write,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: auctionKey(tournament) })
      void qc.invalidateQueries({ queryKey: auditKey(tournament) })
    },
  })
}

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
