// Substitutes, signed after the auction: a captain asks, an organiser approves or refuses. Kept live
// by topic `teams` (substitute.request, team.updated).
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveTopic } from '@/lib/live'
import type { Bench, SubstituteRequest } from '../types'

const path = (tournament: string) => `/tournaments/${encodeURIComponent(tournament)}/substitutes`
const admin = (tournament: string, id: number) => `/admin/tournaments/${encodeURIComponent(tournament)}/substitutes/${id}`

export const benchKey = (tournament: string) => ['tournament', tournament, 'substitutes'] as const

export function useBench(tournament: string) {
  const qc = useQueryClient()
  const key = benchKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.get<Bench>(path(tournament), signal).then((b) => ({ ...b, requests: b.requests ?? [], pool: b.pool ?? [] })),
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

type Answer = { request: SubstituteRequest }

export const askSubstitute = (tournament: string, userId: number) => api.post<Answer>(path(tournament), { userId })

export const approveSubstitute = (tournament: string, id: number) => api.post<Answer>(`${admin(tournament, id)}/approve`)

export const refuseSubstitute = (tournament: string, id: number, reason: string) =>
  api.post<Answer>(`${admin(tournament, id)}/refuse`, { reason })
