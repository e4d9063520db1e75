import { useEffect } from 'react'
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { firstPaintSeason } from '@/lib/first-paint-season'
import { useLiveClient, useLiveTopic, type LiveEvent } from '@/lib/live'
import { appendPage, applyRegistrationEvent, replayEvents } from '../lib/registrations-reducer'
import type { RegistrationsData, TournamentInfo } from '../types'

export const registrationsKey = (tournament: string) => ['tournament', tournament, 'registrations'] as const
export const infoKey = (tournament: string) => ['tournament', tournament, 'info'] as const

const q = (tournament: string) => `tournamentName=${encodeURIComponent(tournament)}`

/** Players a page of the list brings (the server's most). */
export const REGISTRATIONS_PAGE = 500

/** The pages being read after the first, by tournament: one reader however many views ask. */
const reading = new Map<string, Promise<void>>()

/** Reads the list's later pages one after the other into the cached list, live events applying meanwhile. */
function readRest(qc: QueryClient, tournament: string) {
  if (reading.has(tournament)) return
  const key = registrationsKey(tournament)
  const run = (async () => {
    for (;;) {
      const cursor = qc.getQueryData<RegistrationsData>(key)?.next_cursor
      if (!cursor) return
      const page = await api.get<RegistrationsData>(
        `/tournament/registrations?${q(tournament)}&limit=${REGISTRATIONS_PAGE}&cursor=${encodeURIComponent(cursor)}`,
      )
      qc.setQueryData<RegistrationsData>(key, (old) => (old && old.next_cursor === cursor ? appendPage(old, page) : old))
    }
  })()
    .catch(() => undefined)
    .finally(() => reading.delete(tournament))
  reading.set(tournament, run)
}

/** The registered players, kept current by the `registrations` topic without reloads. */
export function useRegistrations(tournament: string) {
  const qc = useQueryClient()
  const live = useLiveClient()
  const key = registrationsKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      // The first page comes at once; the rest follow (readRest) while it is shown.
      const data = await api.get<RegistrationsData>(`/tournament/registrations?${q(tournament)}&limit=${REGISTRATIONS_PAGE}`, signal)
      const base: RegistrationsData = {
        ...data,
        tournament: data.tournament ?? tournament,
        count: data.count ?? data.players?.length ?? 0,
        seq: typeof data.seq === 'number' ? data.seq : 0,
        players: data.players ?? [],
        next_cursor: data.next_cursor ?? null,
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
  const more = !!query.data?.next_cursor
  useEffect(() => {
    if (more) readRest(qc, tournament)
  }, [more, qc, tournament])
  return query
}

/** Applies `tournament.status` (topic `registrations`) to the tournament's summary. */
export function applyStatusEvent(info: TournamentInfo | undefined, ev: LiveEvent): TournamentInfo | undefined {
  if (!info || ev.event !== 'tournament.status') return info
  const data = (ev.data ?? {}) as Partial<TournamentInfo> & { tournament?: string }
  if (data.tournament !== info.name || !data.status) return info
  return { ...info, status: data.status, registration_open: data.registration_open ?? data.status === 'registration' }
}

/** The season's identity fields an event or an answer carries. */
const IDENTITY_FIELDS = ['display_name', 'hero', 'hero_default', 'description', 'starts_at', 'ends_at', 'banner_url'] as const

/** Applies `tournament.updated` (topic `registrations`: an organiser changed the season's identity) to its summary. */
export function applySeasonEvent(info: TournamentInfo | undefined, ev: LiveEvent): TournamentInfo | undefined {
  if (!info || ev.event !== 'tournament.updated') return info
  const data = (ev.data ?? {}) as Record<string, unknown>
  if (data.tournament !== info.name) return info
  const next: Record<string, unknown> = { ...info }
  for (const f of IDENTITY_FIELDS) if (f in data) next[f] = data[f]
  return next as TournamentInfo
}

/** The season the server painted the page with, while its own read is on its way. */
function paintedInfo(tournament: string): TournamentInfo | undefined {
  const painted = firstPaintSeason()
  return painted?.tournament === tournament ? (painted.info as unknown as TournamentInfo) : undefined
}

/**
 * The tournament's phase, whether registration is open and its identity, following `tournament.status`
 * and `tournament.updated` live.
 */
export function useTournamentInfo(tournament: string) {
  const qc = useQueryClient()
  const key = infoKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<TournamentInfo>(`/tournament/info?${q(tournament)}`, signal),
    placeholderData: paintedInfo(tournament),
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    'registrations',
    {
      onEvent: (ev) => {
        if (ev.event === 'tournament.status') qc.setQueryData<TournamentInfo>(key, (old) => applyStatusEvent(old, ev))
        if (ev.event === 'tournament.updated') qc.setQueryData<TournamentInfo>(key, (old) => applySeasonEvent(old, ev))
      },
      onResync: reload,
      onReconnect: reload,
    },
    { enabled: query.data !== undefined && !query.isPlaceholderData },
  )
  return query
}

/** The organisers' calls of the registration (the cap, the check-in window, the waitlist) start here. */
export const adminPath = (tournament: string) => `/admin/tournaments/${encodeURIComponent(tournament)}`
