// The stats-upload and registration view of the auth modal (docs/site.md, "Pages"): composes the stats
// feature (picker, progress, card) with the tournament feature (register, popup, screens).
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Message } from '@/components/ui/popup'
import { Spinner } from '@/components/ui/spinner'
import { useTournamentName } from '@/config/app-config'
import { ApiError, errorMessage } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'
import { useLiveTopic } from '@/lib/live'
import { extractStats, getSavedStats, saveStats, savedStatsKey, useSavedStats } from '@/features/stats/api/stats'
import { StatsCard } from '@/features/stats/components/stats-card'
import { StatsPicker } from '@/features/stats/components/stats-picker'
import { StatsReview } from '@/features/stats/components/stats-review'
import { UploadProgress } from '@/features/stats/components/upload-progress'
import { applyReview, cardFromExtracted, cardFromSaved, needsReview, randomCategory, toSavePayload } from '@/features/stats/lib/stats-model'
import type { CardStats, ExtractedStats, ProgressStage, ReviewValues } from '@/features/stats/types'
import { registerForTournament } from '@/features/tournament/api/registrations'
import { AlreadyRegistered } from '@/features/tournament/components/already-registered'
import { RegistrationPopup } from '@/features/tournament/components/registration-popup'
import { UnregisterButton } from '@/features/tournament/components/unregister-button'
import { OWN_CARD_LINK } from '../links'

export type PendingRegistration = { stats: ExtractedStats; category: number; register: boolean } | null

export const MSG = {
  needStats: 'Please upload your SK stats first before registering for the tournament!',
  alreadyRegistered: 'You are already registered for the tournament!',
  loginToSave: 'Please login to save your stats',
  noData: 'No data extracted from image',
  extractFailed: 'Failed to extract stats from image',
  extractAlert: 'Error processing image. Please try again with a clearer screenshot.',
  saveFailed: 'Failed to save stats',
  registerFailed: 'Failed to register for tournament',
} as const

type Props = {
  user: User | null
  view: 'stats' | 'registered'
  autoRegister?: boolean
  registerIntent?: boolean
  requireAuth: () => void
  close: () => void
  pending: PendingRegistration
  setPending: (p: PendingRegistration) => void
}

type Phase = 'auto' | 'pick' | 'review' | 'card'

/** An answer the player is checking: whether the server kept it, and the card's category. */
type Review = { stats: ExtractedStats; saved: boolean; category: number | null }

export function RegisterFlow({ user, view, autoRegister = false, registerIntent = false, requireAuth, close, pending, setPending }: Props) {
  const tournament = useTournamentName()
  const qc = useQueryClient()
  const navigate = useNavigate()
  const saved = useSavedStats(!!user)

  const [phase, setPhase] = useState<Phase>('auto')
  const [file, setFile] = useState<File | null>(null)
  const [uploading, setUploading] = useState(false)
  const [stage, setStage] = useState<ProgressStage | null>(null)
  const [card, setCard] = useState<CardStats | null>(pending ? cardFromExtracted(pending.stats, pending.category) : null)
  const [anon, setAnon] = useState<{ stats: ExtractedStats; category: number } | null>(
    pending ? { stats: pending.stats, category: pending.category } : null,
  )
  const [registered, setRegistered] = useState(!!user?.tournament_registered)
  const [error, setError] = useState('')
  const [alertText, setAlertText] = useState('')
  const [info, setInfo] = useState(view === 'registered' ? MSG.alreadyRegistered : '')
  const [busy, setBusy] = useState(false)
  const [popup, setPopup] = useState(false)
  const [waitlisted, setWaitlisted] = useState('')
  const [review, setReview] = useState<Review | null>(null)
  const handledPending = useRef(false)
  // The card's name when the screenshot shows none (the game's Stats tab never does).
  const fallbackName = user?.discord_username || user?.name || ''

  useLiveTopic(
    'user',
    {
      onEvent: (ev) => {
        const st = (ev.data as { stage?: ProgressStage })?.stage
        if (ev.event === 'stats.progress' && st) setStage(st)
      },
    },
    { enabled: !!user },
  )

  const refreshAfterChange = () => {
    qc.invalidateQueries({ queryKey: userQueryKey })
    qc.invalidateQueries({ queryKey: ['tournament', tournament] })
  }

  async function register() {
    setError('')
    setAlertText('')
    if (!user) {
      if (!anon) {
        setError(MSG.needStats)
        return
      }
      setPending({ ...anon, register: true })
      requireAuth()
      return
    }
    if (registered) {
      setError(MSG.alreadyRegistered)
      return
    }
    setBusy(true)
    try {
      const res = await registerForTournament(tournament)
      setWaitlisted(res?.status === 'waitlisted' ? (res.message ?? '') : '')
      setRegistered(true)
      setPopup(true)
      refreshAfterChange()
    } catch (err) {
      setError(errorMessage(err, MSG.registerFailed))
    } finally {
      setBusy(false)
    }
  }

  // Signed in after choosing stats anonymously: save them, then register if that was asked.
  const savePending = useEffectEvent(async (p: NonNullable<PendingRegistration>, u: User) => {
    setBusy(true)
    setInfo('')
    try {
      await saveStats(toSavePayload(p.stats, p.category))
      qc.invalidateQueries({ queryKey: savedStatsKey })
      setAnon(null)
      setPhase('card')
    } catch (err) {
      setError(errorMessage(err, MSG.saveFailed))
      setPending(null)
      setBusy(false)
      return
    }
    setBusy(false)
    setPending(null)
    if (p.register && !u.tournament_registered) await register()
    else refreshAfterChange()
  })
  useEffect(() => {
    if (!user || !pending || handledPending.current) return
    handledPending.current = true
    void savePending(pending, user)
  }, [user, pending])

  // Signed in from register mode with stats already saved: registration starts by itself.
  const autoDone = useRef(false)
  const startRegister = useEffectEvent(() => void register())
  useEffect(() => {
    if (!autoRegister || autoDone.current || pending || !user || registered || !saved.data) return
    autoDone.current = true
    startRegister()
  }, [autoRegister, pending, user, registered, saved.data])

  async function upload() {
    if (!file) return
    setError('')
    setAlertText('')
    setInfo('')
    setStage(null)
    setUploading(true)
    try {
      const res = await extractStats(file)
      const stats = res?.stats
      if (!stats) {
        setError(MSG.noData)
        setAlertText(MSG.extractAlert)
        return
      }
      let category: number | null = null
      if (user) {
        // Read back the category the server stored (now, or with the player's earlier stats):
        // a reupload keeps it.
        try {
          const fresh = await qc.fetchQuery({ queryKey: savedStatsKey, queryFn: async () => (await getSavedStats()).stats ?? null, staleTime: 0 })
          category = fresh ? cardFromSaved(fresh, '').category : null
        } catch {
          category = null
        }
        if (res.saved !== false) refreshAfterChange()
      } else {
        category = randomCategory()
      }
      if (needsReview(stats, user ? res.saved : undefined)) {
        // Doubtful or missing figures: the player checks them before anything is kept.
        setReview({ stats, saved: !!user && res.saved !== false, category })
        setFile(null)
        setPhase('review')
        return
      }
      setCard(cardFromExtracted(stats, category, fallbackName))
      if (!user) {
        setAnon({ stats, category: category ?? randomCategory() })
        setInfo(MSG.loginToSave)
      }
      setFile(null)
      setPhase('card')
    } catch (err) {
      setError(errorMessage(err, MSG.extractFailed))
      // A clearer screenshot helps when the image could not be read, not when the upload
      // was refused (type, size, rate limit) or the service is down.
      const unreadable = !(err instanceof ApiError) || err.status === 422 || err.status === 502
      setAlertText(unreadable ? MSG.extractAlert : '')
    } finally {
      setUploading(false)
    }
  }

  // The player approved the figures of the review: they are what the card shows and the save keeps.
  async function approve(values: ReviewValues) {
    if (!review) return
    const approved = applyReview(review.stats, values)
    const category = review.category ?? randomCategory()
    setError('')
    if (!user) {
      setAnon({ stats: approved, category })
      setCard(cardFromExtracted(approved, category))
      setInfo(MSG.loginToSave)
      setReview(null)
      setPhase('card')
      return
    }
    setBusy(true)
    try {
      await saveStats(toSavePayload(approved, category))
      qc.invalidateQueries({ queryKey: savedStatsKey })
      setCard(cardFromExtracted(approved, category))
      setReview(null)
      setPhase('card')
      refreshAfterChange()
    } catch (err) {
      setError(errorMessage(err, MSG.saveFailed))
    } finally {
      setBusy(false)
    }
  }

  function unregistered(message: string) {
    setError('')
    setRegistered(false)
    setInfo(message)
  }

  // Registered: straight to the Reg Player tab, with the player's own card in view.
  function goToTournament() {
    close()
    if (registered) navigate(OWN_CARD_LINK.to, { state: OWN_CARD_LINK.state })
    else navigate('/tournament')
  }

  if (popup) return <RegistrationPopup onDone={goToTournament} waitlisted={waitlisted} />

  const savedCard = user && saved.data ? cardFromSaved(saved.data, user.discord_username || user.name) : null
  const shownCard = card ?? savedCard
  let shown: 'registered' | 'loading' | 'pick' | 'review' | 'card' = phase === 'auto' ? 'pick' : phase
  if (phase === 'auto') {
    if (user && registered && !pending) shown = 'registered'
    else if (shownCard) shown = 'card'
    else if (user && saved.isLoading) shown = 'loading'
  }

  const messages = (
    <>
      <Message kind="error">{error}</Message>
      {alertText ? (
        <p className="msg msg-alert" role="alert">
          {alertText}
        </p>
      ) : null}
      <Message kind="info">{info}</Message>
    </>
  )

  if (shown === 'loading') return <Spinner label="Loading your stats" />

  if (shown === 'review' && review) {
    return (
      <div className="register-flow">
        {messages}
        <StatsReview
          stats={review.stats}
          fallbackName={fallbackName}
          saved={review.saved}
          busy={busy}
          submitLabel={user ? 'Save my stats' : 'Use these stats'}
          onSubmit={approve}
          onKeep={
            review.saved
              ? () => {
                  setCard(cardFromExtracted(review.stats, review.category, fallbackName))
                  setReview(null)
                  setPhase('card')
                }
              : undefined
          }
        />
      </div>
    )
  }

  if (shown === 'registered') {
    return (
      <>
        {messages}
        <AlreadyRegistered
          tournament={tournament}
          onTournament={goToTournament}
          onUploadNew={() => (setInfo(''), setPhase('pick'))}
          onUnregistered={unregistered}
        />
      </>
    )
  }

  if (shown === 'card' && shownCard) {
    return (
      <div className="register-flow">
        {messages}
        <StatsCard
          stats={shownCard}
          note={
            !user ? (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => (setPending(anon ? { ...anon, register: false } : null), requireAuth())}>
                Sign in to save your stats
              </button>
            ) : registered ? (
              <p className="registered-note">✓ Registered for {tournament}</p>
            ) : null
          }
          actions={
            <>
              {registered ? (
                <UnregisterButton tournament={tournament} onUnregistered={unregistered} disabled={busy} />
              ) : (
                <button type="button" className="btn btn-primary" onClick={register} disabled={busy}>
                  {busy ? 'Registering…' : `Register for ${tournament}`}
                </button>
              )}
              <button
                type="button"
                className="btn btn-ghost"
                onClick={() => {
                  setError('')
                  setInfo('')
                  setPhase('pick')
                }}
                disabled={busy}
              >
                REUPLOAD SK STATS
              </button>
            </>
          }
        />
      </div>
    )
  }

  return (
    <div className="register-flow">
      <p className="muted">
        Upload the screenshot of your Smash Karts stats screen: we read your level, kills, deaths, games and K/D.
      </p>
      {messages}
      {registerIntent && user && !shownCard && !registered && !error && !info && !uploading ? (
        <Message kind="info">{MSG.needStats}</Message>
      ) : null}
      <StatsPicker file={file} onFile={setFile} onUpload={upload} busy={uploading} />
      {uploading ? <UploadProgress stage={stage} live={!!user} /> : null}
      {shownCard && !uploading ? (
        <button type="button" className="btn btn-ghost btn-block" onClick={() => setPhase('card')}>
          Back to my stats card
        </button>
      ) : null}
    </div>
  )
}
