import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { ExtractedStats, SavedStats, SaveStatsPayload } from '../types'

export const savedStatsKey = ['stats', 'saved'] as const

export function extractStats(file: File, signal?: AbortSignal) {
  const form = new FormData()
  form.append('screenshot', file)
  return api.upload<{ success: boolean; stats: ExtractedStats | null; saved?: boolean }>('/stats/extract', form, signal)
}

export function saveStats(payload: SaveStatsPayload) {
  return api.post<{ success: boolean; stats: SavedStats }>('/stats/save', payload)
}

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
