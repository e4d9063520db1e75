import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Board, BoardKind, Found, Profile, TeamPageData, Versus } from './types'

const enc = encodeURIComponent

export const playerKey = (id: number) => ['player', id] as const

/** A player's profile. */
export function usePlayer(id: number) {
  return useQuery({
    queryKey: playerKey(id),
    queryFn: ({ signal }) => api.get<Profile>(`/players/${id}`, signal),
    enabled: Number.isInteger(id) && id > 0,
  })
}

/** Hides or shows the signed-in player's own profile. */
export function useSetVisibility(id: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (hidden: boolean) => api.put<{ hidden: boolean }>('/players/me/visibility', { hidden }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: playerKey(id) }),
  })
}

/** Players (and, on the first page, teams) whose name holds q, page after page. */
export function useSearch(q: string, limit = 20) {
  return useInfiniteQuery({
    queryKey: ['search', q, limit],
    queryFn: ({ pageParam, signal }) =>
      api.get<Found>(`/players?q=${enc(q)}&limit=${limit}${pageParam ? `&cursor=${enc(pageParam)}` : ''}`, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: q.trim().length > 0,
    staleTime: 30_000,
  })
}

/** A team's page in a season. */
export function useTeamPage(tournament: string, letter: string) {
  return useQuery({
    queryKey: ['team-page', tournament, letter],
    queryFn: ({ signal }) => api.get<TeamPageData>(`/tournaments/${enc(tournament)}/teams/${enc(letter)}`, signal),
  })
}

/** A leaderboard, page after page. */
export function useBoard(kind: BoardKind, limit = 25) {
  return useInfiniteQuery({
    queryKey: ['board', kind, limit],
    queryFn: ({ pageParam, signal }) =>
      api.get<Board>(`/leaderboards/${kind}?limit=${limit}${pageParam ? `&cursor=${enc(pageParam)}` : ''}`, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  })
}

/** Two players' head-to-head. */
export function useVersus(id: number, other: number | null) {
  return useQuery({
    queryKey: ['versus', id, other],
    queryFn: ({ signal }) => api.get<Versus>(`/players/${id}/versus/${other}`, signal),
    enabled: other !== null && other !== id,
  })
}
