import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { userQueryKey } from '@/lib/auth'
import type { SavedStats, SaveStatsPayload } from '../types'
import { savedStatsKey } from './stats'

export function saveStats(payload: SaveStatsPayload) {
  return api.post<{ success: boolean; stats: SavedStats }>('/stats/save', payload)
}

/** Keeps the player's stats: their saved stats, their account (stats uploaded) and the public cards are read again. */
export function useSaveStats() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: saveStats,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: savedStatsKey })
      void qc.invalidateQueries({ queryKey: userQueryKey })
      void qc.invalidateQueries({ queryKey: ['tournament'] })
    },
  })
}
