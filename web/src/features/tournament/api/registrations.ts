import { useCallback, useEffect } from 'react'
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { firstPaintSeason } from '@/lib/first-paint-season'
import { useLiveClient, useLiveTopic, type LiveEvent } from '@/lib/live'
import { appendPage, applyRegistrationEvent, inRegistrationOrder, replayEvents } from '../lib/registrations-reducer'
import type { RegistrationsData, TournamentInfo } from '../types'

export const registrationsKey = (tournament: string) => ['tournament', tournament, 'registrations'] as const
export const infoKey = (tournament: string) => ['tournament', tournament, 'info'] as const

const q = (tournament: string) => `tournamentName=${encodeURIComponent(tournament)}`

/** Players the first page brings: the newest, what the tab and the home page show first. */
export const FIRST_PAGE = 100
/** Players a later page brings (the server's most). */
export const REGISTRATIONS_PAGE = 500

/** The pages being read after the first, by tournament: one reader however many views ask. */
const reading = new Map<string, { all: boolean; run: Promise<void> }>()

/**
 * Reads the list's later pages (newest first) into the cached list, live events applying meanwhile:
 * the next one, or with `all` every one left (a search, another order, an organiser's tools).
 */
function readRest(qc: QueryClient, tournament: string, all: boolean) {
  const now = reading.get(tournament)
  if (now && (now.all || !all)) return
  const key = registrationsKey(tournament)
  const run = (async () => {
    await now?.run
    for (let first = true; first || all; first = false) {
      const cursor = qc.getQueryData<RegistrationsData>(key)?.next_cursor
      if (!cursor) return
      const page = await api.get<RegistrationsData>(
        `/tournament/registrations?${q(tournament)}&sort=newest&limit=${REGISTRATIONS_PAGE}&cursor=${encodeURIComponent(cursor)}`,
      )
      qc.setQueryData<RegistrationsData>(key, (old) => (old && old.next_cursor === cursor ? appendPage(old, page) : old))
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      if (reading.get(tournament)?.run === run) reading.delete(tournament)
    })
  reading.set(tournament, { all, run })
}

/**
 * The registered players, kept current by the `registrations` topic without reloads. The first
 * page holds the newest players; `more()` reads the next page, and `{ all: true }` (or `more(true)`)
 * the whole list, for what needs every player (a search, another order, the organisers' tools).
 */
export function useRegistrations(tournament: string, { all = false }: { all?: boolean } = {}) {
  const qc = useQueryClient()
  const live = useLiveClient()
  const key = registrationsKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const data = await api.get<RegistrationsData>(`/tournament/registrations?${q(tournament)}&sort=newest&limit=${FIRST_PAGE}`, signal)
      const base: RegistrationsData = {
        ...data,
        tournament: data.tournament ?? tournament,
        count: data.count ?? data.players?.length ?? 0,
        seq: typeof data.seq === 'number' ? data.seq : 0,
        players: inRegistrationOrder(data.players ?? []),
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
  const partial = !!query.data?.next_cursor
  useEffect(() => {
    if (partial && all) readRest(qc, tournament, true)
  }, [partial, all, qc, tournament])
  const more = useCallback((every = false) => readRest(qc, tournament, every), [qc, tournament])
  return { ...query, more }
}

/** Reads `key` again whenever the list changes (any `registrations` event but the season's own), and on a resync. */
function useReadAgainOnChange(key: readonly unknown[], enabled: boolean) {
  const qc = useQueryClient()
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    'registrations',
    {
      onEvent: (ev) => {
        if (ev.event !== 'tournament.status' && ev.event !== 'tournament.updated') reload()
      },
      onResync: reload,
    },
    { enabled },
  )
}

/** A page of the list read in an order (sort=), with a search's count of what it found. */
export type RegistrationView = RegistrationsData & { sort?: string; matched?: number }

/**
 * The list in another order or searched, as the server cuts it (sort=, q=), a page at a time: what
 * the Reg Player tab shows of a list too long to hold whole. Read again when the list changes.
 */
export function useRegistrationView(tournament: string, sort: string, search: string, enabled: boolean) {
  const key = [...registrationsKey(tournament), 'view', sort, search] as const
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      api.get<RegistrationView>(
        `/tournament/registrations?${q(tournament)}&sort=${sort}&limit=${FIRST_PAGE}` +
          (search ? `&q=${encodeURIComponent(search)}` : '') +
          (pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''),
        signal,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled,
    placeholderData: keepPreviousData,
  })
  useReadAgainOnChange(key, enabled && query.data !== undefined)
  return query
}

/**
 * The `count` registered players with the highest K/D, read as the server orders them (sort=kd),
 * not from the whole list; read again when the list changes.
 */
export function useContenders(tournament: string, count: number) {
  const key = [...registrationsKey(tournament), 'top-kd', count] as const
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api.get<RegistrationsData>(`/tournament/registrations?${q(tournament)}&sort=kd&limit=${count}`, signal)).players ?? [],
  })
  useReadAgainOnChange(key, query.data !== undefined)
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
