// REGISTER, following the tournament's phase live: once registration closes it says so at once.
import { openAuthModal } from '@/lib/window-events'
import { useTournamentInfo } from '../api/registrations'

export const PHASE_WORDS: Record<string, string> = {
  registration: 'Registration is open',
  auction: 'The auction is on',
  matches: 'The matches are on',
  completed: 'The season is over',
}

export function RegisterButton({ tournament, className = 'btn btn-primary' }: { tournament: string; className?: string }) {
  const { data: info } = useTournamentInfo(tournament)
  if (info && !info.registration_open) {
    return (
      <button type="button" className={className} disabled title={`${PHASE_WORDS[info.status] ?? info.status}: registration is closed.`}>
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
