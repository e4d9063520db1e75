// The register flow's screens that only show what they are given: picking a screenshot, and the card
// with its register, unregister and reupload buttons.
import type { ReactNode } from 'react'
import { ActionButton } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { StatsCard } from '@/features/stats/components/stats-card'
import { StatsPicker } from '@/features/stats/components/stats-picker'
import { UploadProgress } from '@/features/stats/components/upload-progress'
import type { CardStats, ProgressStage } from '@/features/stats/types'
import { UnregisterButton } from '@/features/tournament/components/unregister-button'

type PickProps = {
  line: ReactNode
  /** Why the upload comes first (REGISTER pressed with no stats), or ''. */
  needStats: string
  file: File | null
  onFile: (f: File | null) => void
  onUpload: () => void
  uploading: boolean
  stage: ProgressStage | null
  live: boolean
  /** Back to the card the player has, when they have one. */
  onBackToCard?: () => void
}

export function PickStep({ line, needStats, file, onFile, onUpload, uploading, stage, live, onBackToCard }: PickProps) {
  return (
    <div className="register-flow">
      <p className="muted">
        Upload the screenshot of your Smash Karts stats screen: we read your level, kills, deaths, games and K/D.
      </p>
      {line}
      <Message kind="info">{needStats}</Message>
      <StatsPicker file={file} onFile={onFile} onUpload={onUpload} busy={uploading} />
      {uploading ? <UploadProgress stage={stage} live={live} /> : null}
      {onBackToCard && !uploading ? (
        <button type="button" className="btn btn-ghost btn-block" onClick={onBackToCard}>
          Back to my stats card
        </button>
      ) : null}
    </div>
  )
}

type CardProps = {
  tournament: string
  card: CardStats
  line: ReactNode
  signedIn: boolean
  registered: boolean
  /** The server takes a registration now: Register is offered. */
  canRegister: boolean
  /** What shows instead while the season takes no registrations (registration-closed.tsx). */
  closed: ReactNode
  /** A save or the registration runs. */
  busy: boolean
  onRegister: () => void
  onUnregistered: (message: string) => void
  onSignIn: () => void
  onReupload: () => void
}

export function CardStep({ tournament, card, line, signedIn, registered, canRegister, closed, busy, onRegister, onUnregistered, onSignIn, onReupload }: CardProps) {
  return (
    <div className="register-flow">
      {line}
      {!registered ? closed : null}
      <StatsCard
        stats={card}
        note={
          !signedIn ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onSignIn}>
              Sign in to save your stats
            </button>
          ) : registered ? (
            <p className="registered-note">✓ Registered for {tournament}</p>
          ) : null
        }
        actions={
          <>
            {registered ? (
              <UnregisterButton tournament={tournament} onUnregistered={onUnregistered} disabled={busy} />
            ) : canRegister ? (
              <ActionButton onClick={onRegister} pending={busy} pendingLabel="Registering…">
                {`Register for ${tournament}`}
              </ActionButton>
            ) : null}
            <button type="button" className="btn btn-ghost" onClick={onReupload} disabled={busy}>
              REUPLOAD SK STATS
            </button>
          </>
        }
      />
    </div>
  )
}
