// /admin/matches: the matches' tools (features/matches), with the panels of other features for the season
// shown: its phase (to move on, or back to the auction once the fixtures are reset), the rosters (a player
// withdrawn, a replacement named) and the substitutes' requests.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTournamentName } from '@/config/app-config'
import { PhaseControl } from '@/features/auction/components/admin-phase'
import { SubstitutesAdmin } from '@/features/auction/components/substitutes'
import type { TournamentStatus } from '@/features/auction/types'
import { AdminMatches } from '@/features/matches/admin-matches'
import { seasonsKey } from '@/features/matches/api/league'
import { OrganiserGate } from '../organiser-gate'
import { AdminRosters } from './admin-rosters'

export default function AdminMatchesRoute() {
  const tournament = useTournamentName()
  const qc = useQueryClient()
  useEffect(() => {
    document.title = 'Matches · Organisers · Pitlane'
  }, [])
  return (
    <OrganiserGate>
      <AdminMatches
        defaultTournament={tournament}
        panels={(season, phase) => (
          <>
            {phase ? (
              <PhaseControl tournament={season} status={phase as TournamentStatus} onChanged={() => qc.invalidateQueries({ queryKey: seasonsKey })} />
            ) : null}
            {phase === 'matches' ? <AdminRosters tournament={season} status="matches" /> : null}
            {phase === 'matches' || phase === 'completed' ? <SubstitutesAdmin tournament={season} phase={phase} /> : null}
          </>
        )}
      />
    </OrganiserGate>
  )
}
