import { useEffect } from 'react'
import { useSearchParams } from '@/lib/router'
import { useTournamentName } from '@/config/app-config'
import { Deck } from '@/features/deck/components/deck'
import { useTournamentInfo } from '@/features/tournament/api/registrations'

export default function PptRoute() {
  const [params] = useSearchParams()
  const follow = params.has('follow')
  // The first slide opens with the current season's hero line, as the home page does.
  const { data: info } = useTournamentInfo(useTournamentName())
  useEffect(() => {
    document.title = follow ? 'Pitlane · Live presentation' : 'Pitlane · Presentation'
  }, [follow])
  // Coming from the footer of a long page: the deck starts at the top.
  useEffect(() => {
    window.scrollTo(0, 0)
  }, [])
  return (
    <main id="main" className="ppt-page">
      {/* A new deck per mode: switching to following starts at the presenter's slide. */}
      <Deck key={follow ? 'follow' : 'own'} follow={follow} season={info?.hero} />
    </main>
  )
}
