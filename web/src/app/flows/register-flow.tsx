// The stats-upload and registration view of the auth modal (docs/site.md, "Pages"): composes the stats
// feature (picker, review, card) with the tournament feature (register, popup, screens). Each concern
// has its hook: the upload (use-stats-reading), the registration (use-registration), the message line
// (flow-messages); this component holds what the player is looking at and the stats they chose.
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { useNavigate } from '@/lib/router'
import { Spinner } from '@/components/ui/spinner'
import { useTournamentName } from '@/config/app-config'
import { errorMessage } from '@/lib/api-client'
import type { User } from '@/lib/auth'
import { missingFigures } from '@/lib/profile-complete'
import { useSaveStats } from '@/features/stats/api/save-stats'
import { useSavedStats } from '@/features/stats/api/stats'
import { StatsReview } from '@/features/stats/components/stats-review'
import {
  applyReview,
  cardFromExtracted,
  cardFromSaved,
  needsReview,
  randomCategory,
  reviewOfSaved,
  screenName,
  toSavePayload,
} from '@/features/stats/lib/stats-model'
import type { CardStats, ExtractedStats, ReviewValues, SavedStats } from '@/features/stats/types'
import { AlreadyRegistered } from '@/features/tournament/components/already-registered'
import { RegistrationPopup } from '@/features/tournament/components/registration-popup'
import { OWN_CARD_LINK } from '../links'
import { FlowMessageLine, useFlowMessages } from './flow-messages'
import { CardStep, PickStep } from './register-steps'
import { RegistrationClosed } from './registration-closed'
import { useRegistrationWindow } from './registration-window'
import { readingFailure, useStatsReading, type Reading } from './use-stats-reading'
import { useRegistration } from './use-registration'

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
  /** The progress shows the stats step as current while the player reviews (null: as the profile says). */
  holdStep?: (step: 3 | null) => void
  pending: PendingRegistration
  setPending: (p: PendingRegistration) => void
}

type Phase = 'auto' | 'pick' | 'review' | 'card'

/** A reading the player is checking: whether the server kept it, and the card's category. */
type Review = { stats: ExtractedStats; saved: boolean; category: number | null }

export function RegisterFlow({ user, view, autoRegister = false, registerIntent = false, requireAuth, close, holdStep, pending, setPending }: Props) {
  const tournament = useTournamentName()
  const navigate = useNavigate()
  const saved = useSavedStats(!!user)
  const messages = useFlowMessages(view === 'registered' ? MSG.alreadyRegistered : '')
  const reading = useStatsReading(user, tournament)
  const registration = useRegistration(tournament, user, messages, MSG)
  // Register is offered only while the server takes it (the league's rules, lib/phase): outside
  // registration the flow ends at the saved stats and says what comes next.
  const season = useRegistrationWindow(user)
  const save = useSaveStats()

  const [phase, setPhase] = useState<Phase>('auto')
  const [card, setCard] = useState<CardStats | null>(pending ? cardFromExtracted(pending.stats, pending.category) : null)
  // Stats chosen while signed out: kept (and saved) once the player signs in.
  const [anon, setAnon] = useState<{ stats: ExtractedStats; category: number } | null>(
    pending ? { stats: pending.stats, category: pending.category } : null,
  )
  const [review, setReview] = useState<Review | null>(null)
  const busy = registration.registering || save.isPending
  // The card's name when the screenshot shows none (the game's Stats tab never does).
  const fallbackName = user?.discord_username || user?.name || ''

  function showCard(stats: ExtractedStats, category: number | null, name = '') {
    setCard(cardFromExtracted(stats, category, name))
    setReview(null)
    setPhase('card')
  }

  // After a save the card is what the server kept (it works out the tier from the figures), not
  // what was sent; an answer without its stats leaves the figures sent.
  function showSaved(kept: SavedStats | null | undefined, sent: ExtractedStats, category: number) {
    if (!kept) return showCard(sent, category)
    setCard(cardFromSaved(kept, screenName(sent) || fallbackName))
    setReview(null)
    setPhase('card')
  }

  function register() {
    if (season.open !== true) return
    if (user) return registration.start()
    messages.setError('')
    messages.setAlert('')
    if (!anon) {
      messages.setError(MSG.needStats)
      return
    }
    setPending({ ...anon, register: true })
    requireAuth()
  }

  // Signed in after choosing stats anonymously: save them, then register if that was asked.
  const savePending = useEffectEvent((p: NonNullable<PendingRegistration>, u: User) => {
    messages.setInfo('')
    save.mutate(toSavePayload(p.stats, p.category), {
      onSuccess: (res) => {
        setAnon(null)
        showSaved(res?.stats, p.stats, p.category)
        setPending(null)
        if (p.register && !u.tournament_registered && season.open) registration.start()
      },
      onError: (err) => {
        messages.setError(errorMessage(err, MSG.saveFailed))
        setPending(null)
      },
    })
  })
  const handledPending = useRef(false)
  useEffect(() => {
    if (!user || !pending || handledPending.current) return
    handledPending.current = true
    savePending(pending, user)
  }, [user, pending])

  // Signed in from register mode with stats already saved: registration starts by itself.
  const autoDone = useRef(false)
  const startRegister = useEffectEvent(() => register())
  useEffect(() => {
    if (!autoRegister || autoDone.current || pending || !user || registration.registered || !saved.data || !season.open) return
    autoDone.current = true
    startRegister()
  }, [autoRegister, pending, user, registration.registered, saved.data, season.open])

  function upload() {
    messages.clear()
    reading.upload(read, (err) => {
      const failure = readingFailure(err, MSG)
      messages.setError(failure.error)
      messages.setAlert(failure.alert)
    })
  }

  function read({ stats, saved: kept, category }: Reading) {
    if (needsReview(stats, user ? kept : undefined)) {
      // Doubtful or missing figures: the player checks them before anything is kept.
      setReview({ stats, saved: !!user && kept !== false, category })
      setPhase('review')
      return
    }
    if (!user) {
      setAnon({ stats, category: category ?? randomCategory() })
      messages.setInfo(MSG.loginToSave)
    }
    showCard(stats, category, fallbackName)
  }

  // The player approved the figures of the review: they are what the card shows and the save keeps.
  function approve(shownReview: Review, values: ReviewValues) {
    const approved = applyReview(shownReview.stats, values)
    const category = shownReview.category ?? randomCategory()
    messages.setError('')
    if (!user) {
      setAnon({ stats: approved, category })
      messages.setInfo(MSG.loginToSave)
      showCard(approved, category)
      return
    }
    save.mutate(toSavePayload(approved, category), {
      onSuccess: (res) => showSaved(res?.stats, approved, category),
      onError: (err) => messages.setError(errorMessage(err, MSG.saveFailed)),
    })
  }

  // Registered: straight to the Reg Player tab, with the player's own card in view.
  function goToTournament() {
    close()
    if (registration.registered) navigate(OWN_CARD_LINK.to, { state: OWN_CARD_LINK.state })
    else navigate('/tournament')
  }

  const savedCard = user && saved.data ? cardFromSaved(saved.data, user.discord_username || user.name) : null
  const shownCard = card ?? savedCard
  // Stats kept with figures missing (the screenshot did not show them, and the review was closed):
  // the same review again, until they are there.
  const unfinished = user && saved.data && !pending ? missingFigures(saved.data) : []
  const savedReview: Review | null =
    unfinished.length > 0 && saved.data ? { stats: reviewOfSaved(saved.data, unfinished, fallbackName), saved: true, category: savedCard?.category ?? null } : null
  let shown: 'registered' | 'loading' | 'pick' | 'review' | 'card' = phase === 'auto' ? 'pick' : phase
  if (phase === 'auto') {
    if (savedReview) shown = 'review'
    else if (user && registration.registered && !pending) shown = 'registered'
    else if (shownCard) shown = 'card'
    else if (user && saved.isLoading) shown = 'loading'
  }
  const shownReview = phase === 'review' ? review : savedReview
  const reviewing = shown === 'review' && !!shownReview
  useEffect(() => {
    if (!reviewing || !holdStep) return
    holdStep(3)
    return () => holdStep(null)
  }, [holdStep, reviewing])

  if (registration.done) return <RegistrationPopup onDone={goToTournament} waitlisted={registration.done.waitlisted} />

  const line = <FlowMessageLine messages={messages} />

  if (shown === 'loading') return <Spinner label="Loading your stats" />

  if (reviewing && shownReview) {
    return (
      <div className="register-flow">
        {line}
        <StatsReview
          key={shownReview === savedReview ? 'saved' : 'read'}
          stats={shownReview.stats}
          fallbackName={fallbackName}
          saved={shownReview.saved}
          busy={busy}
          submitLabel={user ? 'Save my stats' : 'Use these stats'}
          onSubmit={(values) => approve(shownReview, values)}
        />
      </div>
    )
  }

  if (shown === 'registered') {
    return (
      <>
        {line}
        <AlreadyRegistered
          tournament={tournament}
          onTournament={goToTournament}
          onUploadNew={() => (messages.setInfo(''), setPhase('pick'))}
          onUnregistered={registration.unregistered}
        />
      </>
    )
  }

  if (shown === 'card' && shownCard) {
    return (
      <CardStep
        tournament={tournament}
        card={shownCard}
        line={line}
        signedIn={!!user}
        registered={registration.registered}
        canRegister={season.open === true}
        closed={season.open === false ? <RegistrationClosed season={season} user={user} statsSaved={!!user} onLeave={close} /> : null}
        busy={busy}
        onRegister={register}
        onUnregistered={registration.unregistered}
        onSignIn={() => (setPending(anon ? { ...anon, register: false } : null), requireAuth())}
        onReupload={() => {
          messages.setError('')
          messages.setInfo('')
          setPhase('pick')
        }}
      />
    )
  }

  return (
    <PickStep
      line={line}
      needStats={
        registerIntent && season.open && !!user && !shownCard && !registration.registered && !messages.error && !messages.info && !reading.uploading
          ? MSG.needStats
          : ''
      }
      file={reading.file}
      onFile={reading.setFile}
      onUpload={upload}
      uploading={reading.uploading}
      stage={reading.stage}
      live={!!user}
      onBackToCard={shownCard ? () => setPhase('card') : undefined}
    />
  )
}
