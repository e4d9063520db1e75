// REGISTER, following the tournament's phase live: once registration closes it says so at once.
import { phaseName } from '@/lib/season-name'
import { openAuthModal } from '@/lib/window-events'
import { useTournamentInfo } from '../api/registrations'

export function RegisterButton({ tournament, className = 'btn btn-primary' }: { tournament: string; className?: string }) {
  const { data: info } = useTournamentInfo(tournament)
  if (info && !info.registration_open) {
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
