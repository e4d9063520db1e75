import { useParams } from '@/lib/router'
import { PlayerPage } from '@/features/records/components/player-page'

export default function PlayerRoute() {
  const { id } = useParams()
  const n = Number(id)
  return <PlayerPage key={n} id={n} />
}
