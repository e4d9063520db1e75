import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api, request } from '@/lib/api-client'
import { useLiveClient, useLiveTopic, type LiveEvent } from '@/lib/live'
import { applyRegistrationEvent, replayEvents } from '../lib/registrations-reducer'
import type { Entry, Places, RegistrationsData, TournamentInfo } from '../types'

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

export type RegisterResponse = Entry & { success: boolean }

export function registerForTournament(tournamentName: string) {
  return api.post<RegisterResponse>('/tournament/register', { tournamentName })
}

export function unregisterFromTournament(tournamentName: string) {
  return api.post<RegisterResponse>('/tournament/unregister', { tournamentName })
}

/** The signed-in player checks in while the tournament's check-in is open (again: already checked in). */
export function checkIn(tournamentName: string) {
  return api.post<RegisterResponse>('/tournament/checkin', { tournamentName })
}

// The organisers' calls of the registration: the cap, the check-in window and the waitlist.
const admin = (tournament: string) => `/admin/tournaments/${encodeURIComponent(tournament)}`

/** 0 takes the cap away. */
export const setCap = (tournament: string, cap: number) =>
  request<{ places: Places }>(`${admin(tournament)}/cap`, { method: 'PUT', body: { cap } })

/** Opens the check-in until `deadline` (an ISO time), moves it, or with null takes the window away. */
export const setCheckin = (tournament: string, deadline: string | null) =>
  request<{ places: Places }>(`${admin(tournament)}/checkin`, { method: 'PUT', body: { deadline } })

export const promote = (tournament: string, userId: number | string) =>
  api.post<{ entry: Entry }>(`${admin(tournament)}/waitlist/${userId}/promote`)
