import { LeaguePage } from '@/features/records/components/league-page'

export default function LeagueRoute() {
  return <LeaguePage />
}
