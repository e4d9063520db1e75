// The organisers' calls on a season's own identity: its name, hero line, description and dates
// (PUT /admin/tournaments/{name}), its banner (PUT …/banner, multipart) and taking the banner away
// (DELETE …/banner). Each answers the season's summary, which becomes the cached one.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api-client'
import type { TournamentInfo } from '../types'
import { adminPath, infoKey } from './registrations'

/** What an organiser sends: no hero line means the default; null dates, none. */
export type SeasonInput = {
  display_name: string
  hero: string
  description: string
  starts_at: string | null
  ends_at: string | null
}

export const setSeason = (tournament: string, input: SeasonInput) =>
  request<TournamentInfo>(adminPath(tournament), { method: 'PUT', body: input })

export function setBanner(tournament: string, file: File) {
  const form = new FormData()
  form.append('banner', file)
  return request<TournamentInfo>(`${adminPath(tournament)}/banner`, { method: 'PUT', form })
}

export const removeBanner = (tournament: string) => request<TournamentInfo>(`${adminPath(tournament)}/banner`, { method: 'DELETE' })

/** The answer is the season as it now is: every page reading its summary shows it at once. */
function useSeasonWrite<V>(tournament: string, write: (v: V) => Promise<TournamentInfo>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: write,
    onSuccess: (info) => qc.setQueryData<TournamentInfo>(infoKey(tournament), (old) => ({ ...old, ...info })),
  })
}

export const useSetSeason = (tournament: string) => useSeasonWrite(tournament, (input: SeasonInput) => setSeason(tournament, input))
export const useSetBanner = (tournament: string) => useSeasonWrite(tournament, (file: File) => setBanner(tournament, file))
export const useRemoveBanner = (tournament: string) => useSeasonWrite(tournament, () => removeBanner(tournament))
