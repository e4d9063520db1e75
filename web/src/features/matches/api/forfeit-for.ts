import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Match } from '../types'
import { leagueKey, matchKey } from './league'
import { postMatch } from './match-write'

/** An organiser forfeits one side of the match (audited): the other side wins. */
export const forfeitFor = (id: number, team: string) => postMatch(`/admin/matches/${id}/forfeit`, { team })

/** The match is replaced in the cache, and the league (its tables and queues) read again. */
export function useForfeitFor(match: Pick<Match, 'id' | 'tournament'>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (team: string) => forfeitFor(match.id, team),
    onSuccess: (done) => {
      qc.setQueryData(matchKey(match.id), done)
      return qc.invalidateQueries({ queryKey: leagueKey(match.tournament ?? '') })
    },
  })
}
