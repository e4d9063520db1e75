import { useEffect } from 'react'
import { useSearchParams } from 'react-router'
import { Deck } from '@/features/deck/components/deck'

export default function PptRoute() {
  const [params] = useSearchParams()
  useEffect(() => {
    document.title = 'Pitlane · Presentation'
  }, [])
  return (
    <main id="main" className="ppt-page">
      <Deck follow={params.has('follow')} />
    </main>
  )
}
