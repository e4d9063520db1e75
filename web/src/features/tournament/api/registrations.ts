import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveClient, useLiveTopic, type LiveEvent } from '@/lib/live'
import { applyRegistrationEvent, replayEvents } from '../lib/registrations-reducer'
import type { RegistrationsData, TournamentInfo } from '../types'

export const registrationsKey = (tournament: string) => ['tournament', tournament, 'registrations'] as const
export const infoKey = (tournament: string) => ['tournament', tournament, 'info'] as const

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
        ...data,
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

/** Applies `tournament.status` (topic `registrations`) to the tournament's summary. */
export function applyStatusEvent(info: TournamentInfo | undefined, ev: LiveEvent): TournamentInfo | undefined {
  if (!info || ev.event !== 'tournament.status') return info
  const data = (ev.data ?? {}) as Partial<TournamentInfo> & { tournament?: string }
  if (data.tournament !== info.name || !data.status) return info
  return { ...info, status: data.status, registration_open: data.registration_open ?? data.status === 'registration' }
}

/** The tournament's phase and whether registration is open, following `tournament.status` live. */
export function useTournamentInfo(tournament: string) {
  const qc = useQueryClient()
  const key = infoKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<TournamentInfo>(`/tournament/info?${q(tournament)}`, signal),
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    'registrations',
    {
      onEvent: (ev) => {
        if (ev.event === 'tournament.status') qc.setQueryData<TournamentInfo>(key, (old) => applyStatusEvent(old, ev))
      },
      onResync: reload,
      onReconnect: reload,
    },
    { enabled: query.data !== undefined },
  )
  return query
}

/** The organisers' calls of the registration (the cap, the check-in window, the waitlist) start here. */
export const adminPath = (tournament: string) => `/admin/tournaments/${encodeURIComponent(tournament)}`
