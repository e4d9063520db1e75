import { useParams } from '@/lib/router'
import { MatchPage } from '@/features/matches/components/match-page'

export default function MatchRoute() {
  const { id } = useParams()
  const n = Number(id)
  // A new id is a new page: its forms start over.
  return <MatchPage key={n} id={n} />
}
