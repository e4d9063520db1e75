import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { adminTournamentPath, leagueKey } from './league'

/** What a team's withdrawal did: the matches forfeited at once, those left for a ruling. */
export type TeamWithdrawal = { tournament: string; team: { id: string; name: string }; reason: string; forfeited: number[]; to_rule: number[] }

/** Withdraws a team: its matches still to play go to its opponents by forfeit (audited). */
export const withdrawTeam = (tournament: string, team: string, reason: string) =>
  api
    .post<{ withdrawal: TeamWithdrawal }>(`${adminTournamentPath(tournament)}/teams/${encodeURIComponent(team)}/withdraw`, { reason })
    .then((d) => d.withdrawal)

export function useWithdrawTeam(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ team, reason }: { team: string; reason: string }) => withdrawTeam(tournament, team, reason),
    onSuccess: () => qc.invalidateQueries({ queryKey: leagueKey(tournament) }),
  })
}
