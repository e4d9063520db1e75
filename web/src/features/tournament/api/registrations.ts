import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveClient, useLiveTopic } from '@/lib/live'
import { applyRegistrationEvent, replayEvents } from '../lib/registrations-reducer'
import type { RegistrationsData, TournamentInfo } from '../types'

export const registrationsKey = (tournament: string) => ['tournament', tournament, 'registrations'] as const
export const infoKey = (tournament: string) => ['tournament', tournament, 'info'] as const
export const statusKey = (tournament: string) => ['tournament', tournament, 'status'] as const

const q = (tournament: string) => `tournamentName=${encodeURIComponent(tournament)}`

/** The registered players, kept current by the `registrations` topic without reloads. */
export function useRegistrations(tournament: string) {
  const qc = useQueryClient()
  const live = useLiveClient()
  const key = registrationsKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const data = await api.get<RegistrationsData>(`/tournament/registrations?${q(tournament)}`, signal)
      const base: RegistrationsData = {
        tournament: data.tournament ?? tournament,
        count: data.count ?? data.players?.length ?? 0,
        seq: typeof data.seq === 'number' ? data.seq : 0,
        players: data.players ?? [],
      }
      // Events that arrived while this request was in flight are not in the answer.
      return replayEvents(base, live.eventsAfter('registrations', base.seq))
    },
  })

  useLiveTopic(
    'registrations',
    {
      onEvent: (ev) => {
        qc.setQueryData<RegistrationsData>(key, (old) => applyRegistrationEvent(old, ev))
        qc.invalidateQueries({ queryKey: infoKey(tournament) })
      },
      onResync: () => {
        qc.invalidateQueries({ queryKey: key })
      },
    },
    { enabled: query.data !== undefined, since: query.data?.seq },
  )
  return query
}

export function useTournamentInfo(tournament: string) {
  return useQuery({
    queryKey: infoKey(tournament),
    queryFn: ({ signal }) => api.get<TournamentInfo>(`/tournament/info?${q(tournament)}`, signal),
  })
}

export function getRegistrationStatus(tournament: string) {
  return api.get<{ registered: boolean }>(`/tournament/status?${q(tournament)}`)
}

export type RegisterResponse = { success: boolean; registered: boolean; message?: string }

export function registerForTournament(tournamentName: string) {
  return api.post<RegisterResponse>('/tournament/register', { tournamentName })
}

export function unregisterFromTournament(tournamentName: string) {
  return api.post<RegisterResponse>('/tournament/unregister', { tournamentName })
}
