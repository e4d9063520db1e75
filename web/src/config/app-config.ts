// GET /api/config: whether Google sign-in and Discord linking are configured, the default tournament,
// the extractor.
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { firstPaintSeason } from '@/lib/first-paint-season'
import { DEFAULT_TOURNAMENT } from './constants'

export type AppConfig = {
  google_client_id: string
  default_tournament: string
  extractor: 'gemini' | 'ocr'
  /** DISCORD_CLIENT_ID is set: the profile offers "Link Discord". */
  discord_link?: boolean
  /** RUM_SAMPLE_RATE: the share of page loads that send their timings (lib/rum.ts). */
  rum_sample_rate?: number
  /** The Twitch keys are set: /streams and the live badges exist; else the site says nothing of streams. */
  streams?: boolean
}

const fallback: AppConfig = { google_client_id: '', default_tournament: DEFAULT_TOURNAMENT, extractor: 'ocr', discord_link: false, streams: false }

const configQuery = { queryKey: ['config'], queryFn: () => api.get<AppConfig>('/config'), staleTime: Infinity, retry: 1 }

/** Whether the server's config has been read (a page that exists only with a feature waits for it). */
export function useAppConfigRead(): boolean {
  return useQuery(configQuery).isFetched
}

export function useAppConfig(): AppConfig {
  const { data } = useQuery(configQuery)
  // Until the config has come, the season the server painted the page with.
  const current = data?.default_tournament || firstPaintSeason()?.tournament || DEFAULT_TOURNAMENT
  return { ...fallback, ...data, default_tournament: current }
}

export function useTournamentName() {
  return useAppConfig().default_tournament
}
