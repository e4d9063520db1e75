import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Dashboard, Live, WindowName } from '../types'

/** Every read of a tournament's dashboard: invalidate it to read it again. */
export const metricsKey = (tournament: string) => ['metrics', tournament] as const

const query = (params: Record<string, string>) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== '')).toString()

export const getDashboard = (tournament: string, since: WindowName, signal?: AbortSignal) =>
  api.get<Dashboard>(`/admin/metrics?${query({ tournament, since })}`, signal)

/** The dashboard over a window, read again every minute while the page is open. */
export function useDashboard(tournament: string, since: WindowName) {
  return useQuery({
    queryKey: [...metricsKey(tournament), since],
    queryFn: ({ signal }) => getDashboard(tournament, since, signal),
    refetchInterval: 60_000,
    placeholderData: (prev) => prev,
  })
}

/** The night's live figures, read every five seconds while the tab is visible. */
export function useLive(tournament: string) {
  return useQuery({
    queryKey: [...metricsKey(tournament), 'live'],
    queryFn: ({ signal }) => api.get<Live>(`/admin/metrics/live?${query({ tournament })}`, signal),
    refetchInterval: 5_000,
    refetchIntervalInBackground: false,
  })
}
