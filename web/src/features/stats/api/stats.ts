import { useQuery } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api-client'
import { READER_REFUSED, refusedAnswer } from '../lib/stats-model'
import type { ExtractedStats, SavedStats, SaveStatsPayload } from '../types'

export const savedStatsKey = ['stats', 'saved'] as const

type ExtractAnswer = { success: boolean; stats: ExtractedStats | null; saved?: boolean }

/** Reads a screenshot. A screenshot the reader refused (422, "please enter your stats") answers
 *  with nothing read and the server's message, so that the player gets the form to type their
 *  stats in; every other failure is thrown as it came. */
export async function extractStats(file: File, signal?: AbortSignal): Promise<ExtractAnswer> {
  const form = new FormData()
  form.append('screenshot', file)
  try {
    return await api.upload<ExtractAnswer>('/stats/extract', form, signal)
  } catch (err) {
    if (err instanceof ApiError && err.status === 422 && err.serverMessage === READER_REFUSED) {
      return { success: false, stats: refusedAnswer(err.serverMessage), saved: false }
    }
    throw err
  }
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
