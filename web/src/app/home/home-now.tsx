// The home page's first screen, under the hero's buttons: a row of small tiles saying what is
// happening now (the newest players, the latest sale, the latest result) and the visitor's own next
// step (lib: ./pulse). Made of the reads the page already has: nothing more is asked for the first
// paint. Who is live on stream is left out until the site knows it.
import type { ReactNode } from 'react'
import { Avatar } from '@/components/ui/avatar'
import { useSession } from '@/lib/auth'
import { staffRole } from '@/lib/authorization'
import { offersFor, viewerOf, type Phase } from '@/lib/phase'
import { Link } from '@/lib/router'
import { openAuthModal, openStatsUpload } from '@/lib/window-events'
import type { Sale } from '@/features/auction/types'
import type { Match } from '@/features/matches/types'
import type { Player } from '@/features/tournament/types'
import { OWN_CARD_LINK } from '../links'
import { newestPlayers, nextStep, type StepAction } from './pulse'

/**
 * The row of tiles (a list: each tile one thing happening). It shows once the session is known, all
 * its tiles at once: a tile coming later would move the others (layout shift).
 */
export function HomeNow({ children }: { children: ReactNode }) {
  const { isLoading } = useSession()
  if (isLoading) return null
  return (
    <ul className="home-now" aria-label="What is happening">
      {children}
    </ul>
  )
}

export function NowTile({ kicker, testId, children }: { kicker: string; testId?: string; children: ReactNode }) {
  return (
    <li className="now-tile" data-testid={testId}>
      <p className="now-kicker">{kicker}</p>
      {children}
    </li>
  )
}

/** Registration: the newest players, with how many are in. */
export function NewestTile({ players, count }: { players: Player[] | undefined; count: number }) {
  const newest = newestPlayers(players, 3)
  if (newest.length === 0) return null
  return (
    <NowTile kicker="Just registered" testId="now-newest">
      <p className="now-line now-faces">
        <span className="now-avatars" aria-hidden="true">
          {newest.map((p) => (
            <Avatar key={p.id} src={p.image} name={p.name} size={28} />
          ))}
        </span>
        <span>
          <strong>{newest.map((p) => p.name).join(', ')}</strong>
          {count > newest.length ? <span className="muted"> and {count - newest.length} more</span> : null}
        </span>
      </p>
    </NowTile>
  )
}

/** The auction: the player sold last, to whom and for how much. */
export function SaleTile({ sale, credits }: { sale: Sale | null; credits: (n: number) => string }) {
  return (
    <NowTile kicker="Latest sale" testId="now-sale">
      {sale ? (
        <p className="now-line">
          <strong>{sale.player.name}</strong> to Team {sale.team} for <strong>{credits(sale.price)}</strong>
        </p>
      ) : (
        <p className="now-line muted">No player sold yet.</p>
      )}
    </NowTile>
  )
}

/** The matches: the result reported last, with its kills when reported. */
export function ResultTile({ match, describe }: { match: Match; describe: (m: Match) => ReactNode }) {
  return (
    <NowTile kicker="Latest result" testId="now-result">
      <Link to={`/matches/${match.id}`} className="now-line now-link">
        {describe(match)}
      </Link>
    </NowTile>
  )
}

type StepProps = {
  tournament: string
  phase: Phase | undefined
  display: string
  ownMatch?: Match | null
  /** The player's match in a line (its sides and time). */
  describeMatch?: (m: Match) => ReactNode
  ownSale?: Sale | null
}

/** The visitor's own next step, from their session and the season's phase (the league's rules for Register). */
export function NextStepTile({ tournament, phase, display, ownMatch, describeMatch, ownSale }: StepProps) {
  const { user } = useSession()
  const step = nextStep({
    user,
    phase,
    display,
    registerOpen: offersFor(phase, viewerOf(user, tournament)).register,
    captain: staffRole(user) === 'captain',
    ownMatch,
    ownSale,
  })
  return (
    <NowTile kicker={step.title} testId="now-step">
      {step.match && describeMatch ? <p className="now-line">{describeMatch(step.match)}</p> : null}
      <p className="now-line">{step.text}</p>
      {step.action ? <StepButton action={step.action} /> : null}
    </NowTile>
  )
}

function StepButton({ action }: { action: StepAction }) {
  switch (action.kind) {
    case 'auth':
      return (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => openAuthModal(action.mode)}>
          {action.label}
        </button>
      )
    case 'stats':
      return (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => openStatsUpload()}>
          {action.label}
        </button>
      )
    case 'link':
      return (
        <Link to={action.to} state={action.ownCard ? OWN_CARD_LINK.state : undefined} className="btn btn-ghost btn-sm">
          {action.label}
        </Link>
      )
  }
}
