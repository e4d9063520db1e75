// GET /api/config: whether Google sign-in is configured, the default tournament, the extractor.
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { DEFAULT_TOURNAMENT } from './constants'

export type AppConfig = {
  google_client_id: string
  default_tournament: string
  extractor: 'gemini' | 'ocr'
}

const fallback: AppConfig = { google_client_id: '', default_tournament: DEFAULT_TOURNAMENT, extractor: 'ocr' }

export function useAppConfig(): AppConfig {
  const { data } = useQuery({
    queryKey: ['config'],
    queryFn: () => api.get<AppConfig>('/config'),
    staleTime: Infinity,
    retry: 1,
  })
  return { ...fallback, ...data, default_tournament: data?.default_tournament || DEFAULT_TOURNAMENT }
}

export function useTournamentName() {
  return useAppConfig().default_tournament
}
