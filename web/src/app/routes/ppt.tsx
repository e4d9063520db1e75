import { useEffect } from 'react'
import { useSearchParams } from '@/lib/router'
import { Deck } from '@/features/deck/components/deck'

export default function PptRoute() {
  const [params] = useSearchParams()
  const follow = params.has('follow')
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
      <Deck key={follow ? 'follow' : 'own'} follow={follow} />
    </main>
  )
}
