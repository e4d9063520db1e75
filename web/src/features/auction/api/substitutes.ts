// Substitutes, signed after the auction: a captain asks, an organiser approves or refuses. Kept live
// by topic `teams` (substitute.request, team.updated).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveTopic } from '@/lib/live'
import type { Bench, SubstituteRequest } from '../types'

export const benchPath = (tournament: string) => `/tournaments/${encodeURIComponent(tournament)}/substitutes`
export const requestPath = (tournament: string, id: number) => `/admin/tournaments/${encodeURIComponent(tournament)}/substitutes/${id}`

/** A substitute's request asked for or answered: the bench is read again (a live event follows too). */
export function useBenchWrite<V>(tournament: string, write: (v: V) => Promise<{ request: SubstituteRequest }>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: write, onSuccess: () => qc.invalidateQueries({ queryKey: benchKey(tournament) }) })
}

export const benchKey = (tournament: string) => ['tournament', tournament, 'substitutes'] as const

export function useBench(tournament: string) {
  const qc = useQueryClient()
  const key = benchKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.get<Bench>(benchPath(tournament), signal).then((b) => ({ ...b, requests: b.requests ?? [], pool: b.pool ?? [] })),
    enabled: !!tournament,
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    'teams',
    {
      onEvent: (ev) => {
        // A sale or a voided one changes who is free; a request or a signing the requests.
        if (['substitute.request', 'team.updated', 'auction.sold', 'auction.voided'].includes(ev.event)) reload()
      },
      onResync: reload,
      onReconnect: reload,
    },
    { enabled: query.data !== undefined },
  )
  useLiveTopic('registrations', { onEvent: (ev) => ev.event === 'tournament.status' && reload() }, { enabled: query.data !== undefined })
  return query
}
