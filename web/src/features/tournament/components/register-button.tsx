// REGISTER, following the tournament's phase live: once registration closes it says so at once.
// Whether it is offered is the league's rules table (lib/phase), the server's own.
import { phaseName } from '@/lib/season-name'
import { useSession } from '@/lib/auth'
import { offersFor, viewerOf } from '@/lib/phase'
import { openAuthModal } from '@/lib/window-events'
import { useTournamentInfo } from '../api/registrations'

export function RegisterButton({ tournament, className = 'btn btn-primary' }: { tournament: string; className?: string }) {
  const { data: info } = useTournamentInfo(tournament)
  const { user } = useSession()
  if (info && !offersFor(info.status, viewerOf(user, tournament)).register) {
    return (
      <button type="button" className={className} disabled title={`${phaseName(info.status)}: registration is closed.`}>
        Registration closed
      </button>
    )
  }
  return (
    <button type="button" className={className} onClick={() => openAuthModal('register')}>
      REGISTER
    </button>
  )
}
