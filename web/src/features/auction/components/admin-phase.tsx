// The tournament's phase, moved by an organiser; every open page follows it live. Each move is offered as
// the server would take it now (GET …/status): plainly, with the problems it leaves listed and "Move anyway"
// (force), or not at all, with what to do first.
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage, ProblemList } from '@/components/ui/form'
import { usePhaseMoves, type MoveOption } from '../api/phase-moves'
import { useSetPhase } from '../api/set-phase'
import type { TournamentStatus } from '../types'

export const PHASES: { key: TournamentStatus; label: string; detail: string }[] = [
  { key: 'registration', label: 'Registration', detail: 'Players register; captains are chosen.' },
  { key: 'auction', label: 'Auction', detail: 'Lots and bids; registration is closed.' },
  { key: 'matches', label: 'Matches', detail: 'Fixtures are played; rosters are fixed.' },
  { key: 'completed', label: 'Completed', detail: 'The season is over; badges are awarded.' },
]

/** What a phase's step offers for the server's verdict on moving there. */
export type Offer =
  | { kind: 'move'; label: string; confirmLabel: string; force: boolean; problems: string[] }
  | { kind: 'refused'; label: string; why: string[] }

/**
 * The button a move gets: "Move to …" / "Back to …", confirmed with "Yes, …", or with "Move anyway"
 * and the problems it overrides when the server takes it only with force; a refused move gets no button,
 * only its reasons.
 */
export function offerOf(m: MoveOption): Offer {
  const name = PHASES.find((p) => p.key === m.to)?.label.toLowerCase() ?? m.to
  const label = `${m.back ? 'Back' : 'Move'} to ${name}`
  if (!m.allowed) return { kind: 'refused', label, why: m.refusals }
  if (m.force) return { kind: 'move', label, confirmLabel: 'Move anyway', force: true, problems: m.warnings }
  return { kind: 'move', label, confirmLabel: `Yes, ${name}`, force: false, problems: [] }
}

export function PhaseControl({ tournament, status, onChanged }: { tournament: string; status: TournamentStatus; onChanged?: () => void }) {
  const setPhase = useSetPhase(tournament)
  const moves = usePhaseMoves(tournament)
  const at = PHASES.findIndex((p) => p.key === status)
  // A verdict read in another phase (a move meanwhile) is not this phase's: wait for the new one.
  const fresh = moves.data?.status === status ? moves.data.moves : []
  const offers = new Map(fresh.map((m) => [m.to, offerOf(m)]))
  return (
    <section className="admin-card" aria-labelledby="phase-title">
      <h2 id="phase-title">Phase</h2>
      <ol className="phase-steps">
        {PHASES.map((p, i) => {
          const offer = offers.get(p.key)
          return (
            <li key={p.key} className={i === at ? 'is-current' : i < at ? 'is-done' : ''} aria-current={i === at ? 'step' : undefined}>
              <strong>{p.label}</strong>
              <small>{p.detail}</small>
              {offer?.kind === 'move' ? (
                <>
                  <ConfirmAction
                    label={offer.label}
                    question={`Move ${tournament} to its ${p.label.toLowerCase()} phase?`}
                    detail={
                      <>
                        <p>{i < at ? 'This goes back a phase. Every open page follows at once.' : 'Every open page follows at once.'}</p>
                        {offer.force ? (
                          <>
                            <p>
                              It leaves {offer.problems.length === 1 ? 'one thing' : `${offer.problems.length} things`} incomplete (the move is
                              recorded as forced):
                            </p>
                            <ProblemList problems={offer.problems} />
                          </>
                        ) : null}
                      </>
                    }
                    confirmLabel={offer.confirmLabel}
                    cancelLabel="Cancel"
                    busyLabel="Moving…"
                    className={`btn btn-sm ${i > at ? 'btn-primary' : 'btn-ghost'}`}
                    onConfirm={() => setPhase.mutateAsync({ status: p.key, force: offer.force }).then(() => onChanged?.())}
                  />
                  {offer.force ? (
                    <small className="phase-warn" data-testid={`phase-warnings-${p.key}`}>
                      {offer.problems.length === 1 ? '1 thing incomplete' : `${offer.problems.length} things incomplete`}
                    </small>
                  ) : null}
                </>
              ) : offer?.kind === 'refused' ? (
                <small className="phase-why" data-testid={`phase-refused-${p.key}`}>
                  {offer.label}: not now. {offer.why.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('. ')}.
                </small>
              ) : i === at ? (
                <span className="status-pill">Now</span>
              ) : null}
            </li>
          )
        })}
      </ol>
      {status === 'completed' ? <p className="muted">A completed season is final: its champion and badges are given.</p> : null}
      <ErrorMessage error={moves.error} fallback="The phase moves could not be read." />
      <ErrorMessage error={setPhase.error} fallback="The phase could not be changed." />
    </section>
  )
}
