// The /ppt presentation: buttons, dots, counter, keyboard, double-click fullscreen, and the
// live presenter/follower pair over the `deck` topic.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@/lib/router'
import { SLIDE_COUNT } from '@/config/constants'
import { ErrorMessage } from '@/components/ui/form'
import { useSession } from '@/lib/auth'
import { useLiveTopic } from '@/lib/live'
import { deckKey, getDeck } from '../api/deck'
import { usePublishSlide } from '../api/publish-slide'
import { canNext, canPrev, counterText, goTo, next, onDeckKey, prev, type DeckState } from '../lib/deck-nav'
import { SLIDES } from './slides'
import { runsTheSite } from '@/lib/authorization'

/**
 * `season` is the current season's hero line, the first slide's kicker (the route reads it, and
 * follows it live).
 */
export function Deck({ follow = false, season }: { follow?: boolean; season?: string }) {
  const navigate = useNavigate()
  const { user } = useSession()
  // The presenter is the site's organiser (the server's deck takes no co-organiser).
  const isAdmin = runsTheSite(user)
  const [presenting, setPresenting] = useState(true)
  const presenter = isAdmin && !follow && presenting
  const [state, setState] = useState<DeckState>({ slide: 1, fullscreen: false })
  const publish = usePublishSlide()
  const publishSlide = publish.mutate
  const stageRef = useRef<HTMLDivElement>(null)

  // Followers and the presenter start where the presenter is.
  const shared = useQuery({ queryKey: deckKey, queryFn: getDeck, enabled: follow || isAdmin, staleTime: 0 })
  const initialised = useRef(false)
  useEffect(() => {
    if (shared.data && !initialised.current) {
      initialised.current = true
      setState((s) => goTo(s, shared.data.slide))
    }
  }, [shared.data])

  useLiveTopic(
    'deck',
    {
      onEvent: (ev) => {
        const slide = Number((ev.data as { slide?: number })?.slide)
        if (ev.event === 'slide.changed' && slide >= 1) setState((s) => goTo(s, slide))
      },
      onResync: () => {
        getDeck()
          .then((d) => setState((s) => goTo(s, d.slide)))
          .catch(() => undefined)
      },
    },
    { enabled: follow && shared.data !== undefined, since: shared.data?.seq },
  )

  // What the key handler and move() read: the state of the last commit, or a move made since.
  const stateRef = useRef(state)
  useLayoutEffect(() => {
    stateRef.current = state
  }, [state])

  const move = useCallback(
    (nextState: DeckState) => {
      const cur = stateRef.current
      if (presenter && nextState.slide !== cur.slide) {
        publishSlide(nextState.slide)
      }
      stateRef.current = nextState
      setState(nextState)
    },
    [presenter, publishSlide],
  )

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return
      const t = e.target as HTMLElement | null
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return
      const res = onDeckKey(stateRef.current, e.key)
      if (!res) return
      e.preventDefault()
      if (res.exit) {
        navigate('/')
        return
      }
      if (!res.state.fullscreen && stateRef.current.fullscreen && document.fullscreenElement) {
        document.exitFullscreen?.().catch(() => undefined)
      }
      move(res.state)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [move, navigate])

  // The browser's own fullscreen may be left with its Escape handling: follow it.
  useEffect(() => {
    const onChange = () => {
      if (!document.fullscreenElement) setState((s) => (s.fullscreen ? { ...s, fullscreen: false } : s))
    }
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])

  function enterFullscreen() {
    if (state.fullscreen) return
    setState((s) => ({ ...s, fullscreen: true }))
    stageRef.current?.requestFullscreen?.().catch(() => undefined)
  }

  const slide = SLIDES[state.slide - 1]
  const kicker = state.slide === 1 ? season || slide.kicker : slide.kicker

  return (
    <div className={`deck ${state.fullscreen ? 'is-fullscreen' : ''}`} data-slide={state.slide}>
      <div className="deck-bar">
        <a href="/" className="deck-home" onClick={(e) => (e.preventDefault(), navigate('/'))}>
          ← Pitlane
        </a>
        {follow ? (
          <span className="deck-mode">
            <span className="live-pill" role="status">
              <span className="dot" aria-hidden="true" /> Following the presenter
            </span>
            <Link to="/ppt" className="deck-switch">
              Browse the slides yourself →
            </Link>
          </span>
        ) : isAdmin ? (
          <span className="deck-mode">
            <label className="presenter-toggle">
              <input type="checkbox" checked={presenting} onChange={(e) => setPresenting(e.target.checked)} /> Presenter mode
            </label>
            <span className="deck-share muted">
              Followers of <Link to="/ppt?follow">/ppt?follow</Link> move with you
            </span>
          </span>
        ) : (
          <span className="deck-mode">
            <Link to="/ppt?follow" className="deck-switch">
              <span className="dot" aria-hidden="true" /> Follow the presenter live →
            </Link>
          </span>
        )}
      </div>
      <ErrorMessage error={publish.error} />
      <div
        ref={stageRef}
        className="deck-stage"
        onDoubleClick={enterFullscreen}
        aria-roledescription="slide"
        aria-label={`${slide.title}, slide ${state.slide} of ${SLIDE_COUNT}`}
        data-testid="deck-stage"
      >
        <section key={state.slide} className="slide">
          {kicker ? <p className="slide-kicker">{kicker}</p> : null}
          <h1 className="slide-title">{slide.title}</h1>
          <div className="slide-body">{slide.body}</div>
        </section>
        {state.fullscreen ? (
          <p className="deck-counter deck-counter-fs" aria-live="polite">
            {counterText(state)}
          </p>
        ) : null}
      </div>
      {!state.fullscreen ? (
        <div className="deck-controls">
          <button type="button" className="btn btn-ghost" onClick={() => move(prev(state))} disabled={!canPrev(state)}>
            Previous
          </button>
          <div className="deck-dots" role="group" aria-label="Slides">
            {SLIDES.map((s, i) => (
              <button
                key={s.title}
                type="button"
                className={`deck-dot ${state.slide === i + 1 ? 'active' : ''}`}
                aria-label={`Go to slide ${i + 1}: ${s.title}`}
                aria-current={state.slide === i + 1 ? 'true' : undefined}
                onClick={() => move(goTo(state, i + 1))}
              />
            ))}
          </div>
          <button type="button" className="btn btn-primary" onClick={() => move(next(state))} disabled={!canNext(state)}>
            Next
          </button>
        </div>
      ) : null}
      {!state.fullscreen ? (
        <p className="deck-counter" aria-live="polite" data-testid="deck-counter">
          {counterText(state)}
        </p>
      ) : null}
      {!state.fullscreen ? <p className="deck-hint muted">Arrow keys move · double-click a slide for fullscreen · Esc leaves</p> : null}
    </div>
  )
}
