// After an upload: what the reader found, for the player to check. The review is the stats step's
// save (one button): doubtful figures are flagged and must be confirmed (or corrected) before
// anything is kept; a reading the server kept at once is shown with the figures the screenshot did
// not show empty to type; a capture of the game's Player tab fills the name and SK id.
import { useId, useState } from 'react'
import { ErrorMessage, SubmitButton } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { useExtractStats } from '../api/extract-stats'
import { doubtText, kdOf, kdProposal, REVIEW_FIELDS, reviewDoubts, reviewValues, screenName, toInt } from '../lib/stats-model'
import type { ExtractedStats, ReviewField, ReviewValues } from '../types'
import { isImageFile, NOT_AN_IMAGE } from './stats-picker'

type Props = {
  stats: ExtractedStats
  /** The player's Discord username: the card's name when the screen shows none. */
  fallbackName: string
  /** The server kept the reading already (signed in, nothing doubtful): the save completes it. */
  saved: boolean
  busy: boolean
  submitLabel: string
  onSubmit: (values: ReviewValues) => void
}

export const REVIEW_MSG = {
  confirmFirst: 'Please confirm or correct the highlighted figures first.',
  playerTabEmpty: 'No name or SK id found on that screenshot.',
} as const

/** What a kept reading still lacks, as the review says it. */
function missingText(missing: Set<string>): string {
  const figures = REVIEW_FIELDS.filter((f) => f.numeric && missing.has(f.key)).map((f) => f.label)
  if (figures.length === 0) return 'Kept as read. Add your SK id or correct anything that is wrong, then save.'
  const again = missing.has('games') ? ' Until your card has it, we ask again when you sign in.' : ''
  return `Kept as read, but your screenshot did not show ${figures.join(' and ')}: type ${figures.length === 1 ? 'it' : 'them'} and save.${again}`
}

export function StatsReview({ stats, fallbackName, saved, busy, submitLabel, onSubmit }: Props) {
  const formId = useId()
  const [values, setValues] = useState<ReviewValues>(() => reviewValues(stats, fallbackName))
  const doubts = reviewDoubts(stats)
  const [confirmed, setConfirmed] = useState<Partial<Record<ReviewField, boolean>>>({})
  const [invalid, setInvalid] = useState('')
  const playerTab = useExtractStats()
  const tabBusy = playerTab.isPending
  const missing = new Set(stats.missing ?? [])
  // A K/D worked out from kills and deaths is confirmed on its own line; it follows them after.
  const kdWhy = kdProposal(stats)
  const [kdConfirmed, setKdConfirmed] = useState(false)
  const open: string[] = (Object.keys(doubts) as ReviewField[]).filter((f) => !confirmed[f])
  if (kdWhy && !kdConfirmed) open.push('kd')

  function set(f: ReviewField, v: string) {
    setValues((old) => ({ ...old, [f]: v }))
    setConfirmed((old) => ({ ...old, [f]: true })) // a corrected figure is the player's word
  }

  function readPlayerTab(file: File | undefined) {
    setInvalid('')
    playerTab.reset()
    if (!file) return
    if (!isImageFile(file)) {
      setInvalid(NOT_AN_IMAGE)
      return
    }
    playerTab.mutate(file, {
      onSuccess: (res) => {
        const got = res?.stats
        const name = got ? screenName(got) : ''
        const id = got && !(got.missing ?? []).includes('sk_id') && got.sk_id !== 'N/A' ? got.sk_id : ''
        if (!name && !id) setInvalid(REVIEW_MSG.playerTabEmpty)
        if (name) set('name', name)
        if (id) set('sk_id', id)
      },
    })
  }

  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (open.length > 0) {
      setInvalid(REVIEW_MSG.confirmFirst)
      return
    }
    onSubmit(values)
  }

  const kd = kdOf(toInt(values.kills), toInt(values.deaths))
  const nameFromDiscord = !screenName(stats) && values.name === fallbackName && fallbackName !== ''

  return (
    <form className="stats-review" onSubmit={submit} aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`} className="review-title">
        {stats.refused ? 'Enter your stats' : saved ? 'Saved from your screenshot' : 'Check your stats'}
      </h3>
      <Message kind="info">{stats.refused}</Message>
      <p className="muted">
        {stats.refused
          ? 'Type the figures your Smash Karts Stats screen shows, then save.'
          : open.length > 0
          ? `We are not sure of ${open.length === 1 ? 'one figure' : `${open.length} figures`}: compare with your screenshot, then confirm or correct.`
          : saved
            ? missingText(missing)
            : 'These are the stats we read. Correct anything that is wrong, then save.'}
      </p>
      <div className="review-grid">
        {REVIEW_FIELDS.map((f) => {
          const id = `${formId}-${f.key}`
          const doubt = doubts[f.key]
          const flagged = !!doubt && !confirmed[f.key]
          return (
            <div key={f.key} className={`field review-field${flagged ? ' is-doubtful' : ''}`}>
              <label htmlFor={id}>{f.label}</label>
              <input
                id={id}
                type="text"
                inputMode={f.numeric ? 'numeric' : undefined}
                value={values[f.key]}
                placeholder={stats.refused ? '' : missing.has(f.key) ? 'Not on your screenshot' : ''}
                aria-invalid={flagged || undefined}
                aria-describedby={doubt ? `${id}-why` : undefined}
                onChange={(e) => set(f.key, f.numeric ? e.target.value.replace(/[^\d]/g, '') : e.target.value)}
              />
              {doubt ? (
                <p id={`${id}-why`} className={`review-doubt${flagged ? '' : ' is-confirmed'}`}>
                  {flagged ? (
                    <>
                      <span>{doubtText(doubt)}</span>
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirmed((o) => ({ ...o, [f.key]: true }))}>
                        Confirm {f.label.toLowerCase()}
                      </button>
                    </>
                  ) : (
                    <span>✓ Confirmed</span>
                  )}
                </p>
              ) : null}
              {f.key === 'name' && nameFromDiscord ? <p className="review-note">From your Discord username</p> : null}
            </div>
          )
        })}
      </div>
      <p className={`review-kd${kdWhy && !kdConfirmed ? ' is-doubtful' : ''}`}>
        K/D ratio <strong>{kd}</strong>
        {stats.wins ? <span className="muted"> · Wins {stats.wins} (not games played)</span> : null}
        {stats.bots_kills ? <span className="muted"> · Bots kills {stats.bots_kills} (not kills)</span> : null}
      </p>
      {kdWhy ? (
        <p className={`review-doubt${kdConfirmed ? ' is-confirmed' : ''}`}>
          {kdConfirmed ? (
            <span>✓ Confirmed</span>
          ) : (
            <>
              <span>K/D: {doubtText(kdWhy)}</span>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setKdConfirmed(true)}>
                Confirm K/D
              </button>
            </>
          )}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`${formId}-tab`}>Player tab screenshot (optional: fills your name and SK id)</label>
        <input id={`${formId}-tab`} type="file" accept="image/*" disabled={tabBusy || busy} onChange={(e) => readPlayerTab(e.target.files?.[0])} />
      </div>
      <ErrorMessage error={invalid || playerTab.error} fallback={REVIEW_MSG.playerTabEmpty} />
      <div className="stats-actions">
        <SubmitButton className="btn btn-primary" pending={busy} pendingLabel="Saving…" disabled={tabBusy}>
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  )
}
