import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveTopic } from '@/lib/live'

export type TeamPlayer = {
  id: number | string
  name: string
  image: string | null
  credits: number
  /** Signed after the auction, beside the five. */
  substitute?: boolean
}
export type Team = {
  id: number | string
  letter: string
  name: string
  logo: string | null
  captain: { id: number | string; name: string; image: string | null } | null
  players: TeamPlayer[]
}

export const teamsKey = (tournament: string) => ['tournament', tournament, 'teams'] as const

/** The eight teams; any `teams` event (team.updated, auction.sold, ...) refreshes them. */
export function useTeams(tournament: string) {
  const qc = useQueryClient()
  const query = useQuery({
    queryKey: teamsKey(tournament),
    queryFn: async ({ signal }) => {
      const data = await api.get<{ tournament: string; teams: Team[] }>(
        `/tournament/teams?tournamentName=${encodeURIComponent(tournament)}`,
        signal,
      )
      return [...(data.teams ?? [])].sort((a, b) => a.letter.localeCompare(b.letter))
    },
  })
  const refresh = () => qc.invalidateQueries({ queryKey: teamsKey(tournament) })
  useLiveTopic(
    'teams',
    {
      onEvent: (ev) => {
        if (ev.event === 'team.updated' || ev.event === 'auction.sold' || ev.event === 'auction.voided') refresh()
      },
      onResync: refresh,
      onReconnect: refresh,
    },
    { enabled: query.data !== undefined },
  )
  return query
}
