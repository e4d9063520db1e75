// /admin's Season card: the season's own identity (the name it goes by, the home page's hero line,
// a short description, the dates it runs) and its banner, with a preview. The server checks every
// call (organisers only, the lengths, the dates' order); open pages follow the change live.
import { useId, useState, type ChangeEvent, type FormEvent } from 'react'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ErrorMessage, Field, SubmitButton, TextField } from '@/components/ui/form'
import { anyPending, lastFailure } from '@/lib/mutations'
import { useTournamentInfo } from '../api/registrations'
import { useRemoveBanner, useSetBanner, useSetSeason, type SeasonInput } from '../api/set-season'
import { seasonDates } from '../lib/season'

/** The server's bounds (internal/tournament/season.go), so the fields stop where it would refuse. */
export const SEASON_LIMITS = { displayName: 40, hero: 80, description: 500 } as const
/** An image upload's bound everywhere on the site (internal/upload). */
const MAX_BANNER_BYTES = 8 << 20

type Draft = Partial<Record<keyof SeasonInput, string>>

/** The first thing wrong with the values, in the server's words, or ''. */
export function checkSeason(v: SeasonInput): string {
  const name = v.display_name.trim()
  if (name.length < 1 || name.length > SEASON_LIMITS.displayName) return `A season's display name is 1 to ${SEASON_LIMITS.displayName} characters.`
  if (v.starts_at && v.ends_at && v.ends_at < v.starts_at) return 'The season cannot end before it starts.'
  return ''
}

export function SeasonAdmin({ tournament }: { tournament: string }) {
  const { data: info } = useTournamentInfo(tournament)
  const [draft, setDraft] = useState<Draft>({})
  const [invalid, setInvalid] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [fileKey, setFileKey] = useState(0)
  const fileId = useId()
  const save = useSetSeason(tournament)
  const upload = useSetBanner(tournament)
  const remove = useRemoveBanner(tournament)
  if (!info || info.display_name === undefined) return null

  const values: SeasonInput = {
    display_name: draft.display_name ?? info.display_name,
    hero: draft.hero ?? (info.hero_default ? '' : (info.hero ?? '')),
    description: draft.description ?? info.description ?? '',
    starts_at: (draft.starts_at ?? info.starts_at ?? '') || null,
    ends_at: (draft.ends_at ?? info.ends_at ?? '') || null,
  }
  const bind = (key: keyof SeasonInput) => ({
    value: values[key] ?? '',
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  })
  const busy = anyPending(save, upload, remove)
  const error =
    invalid ||
    lastFailure([save, 'The season could not be saved.'], [upload, 'The banner could not be uploaded.'], [remove, 'The banner could not be removed.'])
  const dates = seasonDates(info)

  function submit(e: FormEvent) {
    e.preventDefault()
    const bad = checkSeason(values)
    setInvalid(bad)
    if (!bad) save.mutate(values, { onSuccess: () => setDraft({}) })
  }
  function pick(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0] ?? null
    setInvalid(f && f.size > MAX_BANNER_BYTES ? 'Image is larger than 8 MB' : '')
    setFile(f && f.size <= MAX_BANNER_BYTES ? f : null)
  }
  function sendBanner(e: FormEvent) {
    e.preventDefault()
    if (!file) return
    upload.mutate(file, {
      onSuccess: () => {
        setFile(null)
        setFileKey((k) => k + 1)
      },
    })
  }

  return (
    <section className="admin-card season-admin" aria-labelledby="season-admin-title">
      <h2 id="season-admin-title">Season</h2>
      <p className="muted small">
        How {tournament} shows itself: the home page, the tournament page, the deck, the stream overlays and the bot. Open pages follow a change
        at once.
      </p>
      <form className="season-form" onSubmit={submit}>
        <TextField label="Display name" required maxLength={SEASON_LIMITS.displayName} {...bind('display_name')} />
        <TextField
          label="Hero line"
          maxLength={SEASON_LIMITS.hero}
          placeholder={`${(values.display_name || tournament).trim()} is on`}
          hint="The home page's headline. Leave it empty for the default, built from the display name."
          {...bind('hero')}
        />
        <DescriptionField {...bind('description')} />
        <div className="season-dates">
          <TextField label="Starts" type="date" {...bind('starts_at')} />
          <TextField label="Ends" type="date" {...bind('ends_at')} />
        </div>
        <div className="season-form-actions">
          <SubmitButton className="btn btn-primary btn-sm" pending={save.isPending} pendingLabel="Saving…" disabled={busy}>
            Save season
          </SubmitButton>
          {dates ? <span className="muted small">{dates}</span> : null}
        </div>
      </form>

      <h3>Banner</h3>
      <div className="season-banner-preview" data-testid="banner-preview">
        {info.banner_url ? <img src={info.banner_url} alt={`${info.display_name}'s banner`} /> : <p className="muted">No banner: the home page shows its own glow.</p>}
      </div>
      <form className="inline-form" onSubmit={sendBanner}>
        <Field id={fileId} label="Image (PNG, JPEG or WebP, at most 8 MB)">
          <input key={fileKey} id={fileId} type="file" accept="image/png,image/jpeg,image/webp" onChange={pick} />
        </Field>
        <SubmitButton className="btn btn-ghost btn-sm" pending={upload.isPending} pendingLabel="Uploading…" disabled={busy || !file}>
          Upload banner
        </SubmitButton>
        {info.banner_url ? (
          <ConfirmAction
            label="Remove banner"
            question="Remove the season's banner?"
            detail="The home page goes back to its own glow."
            confirmLabel="Yes, remove it"
            cancelLabel="Keep it"
            busyLabel="Removing…"
            className="btn btn-danger-ghost btn-sm"
            disabled={busy}
            onConfirm={() => remove.mutateAsync()}
          />
        ) : null}
      </form>
      <ErrorMessage error={error} />
    </section>
  )
}

function DescriptionField(props: { value: string; onChange: (e: ChangeEvent<HTMLTextAreaElement>) => void }) {
  const id = useId()
  return (
    <Field id={id} label="Description" hint={`${props.value.length} / ${SEASON_LIMITS.description}: on the home page under the hero, and on the tournament page.`}>
      <textarea id={id} rows={3} maxLength={SEASON_LIMITS.description} aria-describedby={`${id}-hint`} {...props} />
    </Field>
  )
}
