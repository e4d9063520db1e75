import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** A goal of the deck with what is measured (GET /api/metrics/summary: counts and shares, no names). */
export type Goal = { id: string; label: string; goal: string; value: number | null; display: string; ok: boolean | null }

export type MetricsSummary = { tournament: string; generated_at: string; targets: Goal[] }

export const getSummary = (signal?: AbortSignal) => api.get<MetricsSummary>('/metrics/summary', signal)

/** The season's goals, read again every minute while the deck shows them. */
export function useMetricsSummary() {
  return useQuery({ queryKey: ['metrics', 'summary'], queryFn: ({ signal }) => getSummary(signal), refetchInterval: 60_000, retry: 1 })
}
