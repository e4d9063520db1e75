import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { SavedStats } from '../types'

export const savedStatsKey = ['stats', 'saved'] as const

export function getSavedStats() {
  return api.get<{ success: boolean; stats: SavedStats | null }>('/stats/get')
}

export function useSavedStats(enabled: boolean) {
  return useQuery({
    queryKey: savedStatsKey,
    queryFn: async () => (await getSavedStats()).stats ?? null,
    enabled,
    staleTime: 0,
  })
}
