import { UnregisterButton } from './unregister-button'

/** The screen for a player who is already registered, with unregistering in plain sight. */
export function AlreadyRegistered({
  tournament,
  onTournament,
  onUploadNew,
  onUnregistered,
}: {
  tournament: string
  onTournament: () => void
  onUploadNew: () => void
  onUnregistered: (message: string) => void
}) {
  return (
    <div className="already-registered">
      <div className="big-check" aria-hidden="true">
        ✓
      </div>
      <h3>You are already registered!</h3>
      <div className="row-actions">
        <button type="button" className="btn btn-primary" onClick={onTournament} data-autofocus>
          Go to Tournament Page
        </button>
        <button type="button" className="btn btn-ghost" onClick={onUploadNew}>
          Upload New Stats
        </button>
      </div>
      <UnregisterButton tournament={tournament} onUnregistered={onUnregistered} />
    </div>
  )
}
