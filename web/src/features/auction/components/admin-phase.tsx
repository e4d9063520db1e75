// The tournament's phase, moved by an organiser; every open page follows it live.
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage } from '@/components/ui/form'
import { useSetPhase } from '../api/set-phase'
import type { TournamentStatus } from '../types'

export const PHASES: { key: TournamentStatus; label: string; detail: string }[] = [
  { key: 'registration', label: 'Registration', detail: 'Players register; captains are chosen.' },
  { key: 'auction', label: 'Auction', detail: 'Lots and bids; registration is closed.' },
  { key: 'matches', label: 'Matches', detail: 'Fixtures are played; rosters are fixed.' },
  { key: 'completed', label: 'Completed', detail: 'The season is over; badges are awarded.' },
]

/**
 * The moves the server may allow from status: on to the next phase, or back
 * one while nothing of the later phase has happened (the server says when it
 * has). A completed season is final.
 */
export function phaseMoves(status: TournamentStatus): { next?: TournamentStatus; back?: TournamentStatus } {
  const at = PHASES.findIndex((p) => p.key === status)
  if (status === 'completed' || at < 0) return {}
  return { next: PHASES[at + 1]?.key, back: at > 0 ? PHASES[at - 1].key : undefined }
}

export function PhaseControl({ tournament, status, onChanged }: { tournament: string; status: TournamentStatus; onChanged?: () => void }) {
  const setPhase = useSetPhase(tournament)
  const at = PHASES.findIndex((p) => p.key === status)
  const moves = phaseMoves(status)
  return (
    <section className="admin-card" aria-labelledby="phase-title">
      <h2 id="phase-title">Phase</h2>
      <ol className="phase-steps">
        {PHASES.map((p, i) => (
          <li key={p.key} className={i === at ? 'is-current' : i < at ? 'is-done' : ''} aria-current={i === at ? 'step' : undefined}>
            <strong>{p.label}</strong>
            <small>{p.detail}</small>
            {p.key === moves.next || p.key === moves.back ? (
              <ConfirmAction
                label={p.key === moves.next ? `Move to ${p.label.toLowerCase()}` : `Back to ${p.label.toLowerCase()}`}
                question={`Move ${tournament} to its ${p.label.toLowerCase()} phase?`}
                detail={i < at ? 'This goes back a phase. Every open page follows at once.' : 'Every open page follows at once.'}
                confirmLabel={`Yes, ${p.label.toLowerCase()}`}
                cancelLabel="Cancel"
                busyLabel="Moving…"
                className={`btn btn-sm ${p.key === moves.next ? 'btn-primary' : 'btn-ghost'}`}
                onConfirm={() => setPhase.mutateAsync(p.key).then(() => onChanged?.())}
              />
            ) : i === at ? (
              <span className="status-pill">Now</span>
            ) : null}
          </li>
        ))}
      </ol>
      {status === 'completed' ? <p className="muted">A completed season is final: its champion and badges are given.</p> : null}
      <ErrorMessage error={setPhase.error} fallback="The phase could not be changed." />
    </section>
  )
}
