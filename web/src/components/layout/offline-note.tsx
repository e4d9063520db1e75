// Said at the top of every page while the browser is offline: what is shown is the last copy kept,
// and nothing live moves until the connection is back.
import { useOnline } from '@/lib/offline'

export function OfflineNote() {
  const online = useOnline()
  if (online) return null
  return (
    <p className="offline-note" role="status" data-testid="offline-note">
      Offline: live updates stop until the connection is back; what you see is the last copy kept.
    </p>
  )
}
