import { useEffect } from 'react'
import { useTournamentName } from '@/config/app-config'
import { SubstitutesAdmin } from '@/features/auction/components/substitutes'
import { AdminMatches } from '@/features/matches/admin-matches'
import { OrganiserGate } from '../organiser-gate'

export default function AdminMatchesRoute() {
  const tournament = useTournamentName()
  useEffect(() => {
    document.title = 'Matches · Organisers · Pitlane'
  }, [])
  return (
    <OrganiserGate>
      <AdminMatches
        defaultTournament={tournament}
        panels={(season, phase) => (phase === 'matches' || phase === 'completed' ? <SubstitutesAdmin tournament={season} phase={phase} /> : null)}
      />
    </OrganiserGate>
  )
}
