import { useParams } from '@/lib/router'
import { TeamPage } from '@/features/records/components/team-page'

export default function TeamRoute() {
  const { name = '', team = '' } = useParams()
  return <TeamPage key={`${name}/${team}`} tournament={name} letter={team} />
}
