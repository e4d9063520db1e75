import { useEffect } from 'react'
import { useTournamentName } from '@/config/app-config'
import { AdminMatches } from '@/features/matches/admin-matches'

export default function AdminMatchesRoute() {
  const tournament = useTournamentName()
  useEffect(() => {
    document.title = 'Matches · Organisers · Pitlane'
  }, [])
  return <AdminMatches defaultTournament={tournament} />
}
