import { useEffect, useId, useRef, useState } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { Field, TextField } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { useSession } from '@/lib/auth'
import { useFadeIn } from '@/lib/use-fade-in'
import { useGrowingWindow } from '@/lib/use-growing-window'
import { useRegistrationView, useRegistrations } from '../api/registrations'
import { PLAYER_SORTS, isPlayerSort, samePlayer, searchPlayers, sortPlayers, type PlayerSort } from '../lib/player-list'
import { isWaiting, placesLine, waitlist } from '../lib/waitlist'
import type { Player } from '../types'
import { PlayerCard } from './player-card'
import { PlayerModalOnDemand } from './player-modal-on-demand'

type Props = {
  tournament: string
  /** Home: only the newest few, without search and sort. */
  limit?: number
  /** Scroll the signed-in player's own card into view once it is on the list (after registering). */
  focusOwn?: boolean
  onFocusedOwn?: () => void
}

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms)
    return () => window.clearTimeout(t)
  }, [value, ms])
  return settled
}

/**
 * The registered players, live: cards appear and leave without a reload. The newest come first
 * and the next page as the visitor scrolls to the end. A search or another order works on the list
 * held when it is whole; a list longer than that is searched and ordered by the server, a page at
 * a time.
 */
export function RegisteredPlayers({ tournament, limit, focusOwn = false, onFocusedOwn }: Props) {
  const [query, setQuery] = useState('')
  const [sort, setSort] = useState<PlayerSort>('newest')
  const { data, isLoading, isError, refetch, more: readMore } = useRegistrations(tournament)
  const search = useSettled(query.trim(), 250)
  const served = !limit && !!data?.next_cursor && (query.trim() !== '' || sort !== 'newest')
  const view = useRegistrationView(tournament, sort, search, served && (search !== '' || sort !== 'newest'))
  const { user } = useSession()
  const [open, setOpen] = useState<Player | null>(null)
  const fadeRef = useFadeIn()
  const ownCard = useRef<HTMLElement | null>(null)
  const focused = useRef(false)
  const sortId = useId()

  const players = data?.players ?? []
  const ownId = user?.id
  const viewPages = served ? view.data?.pages : undefined
  const shown = viewPages
    ? viewPages.flatMap((p) => p.players ?? [])
    : limit
      ? players.slice(-limit).reverse()
      : sortPlayers(searchPlayers(players, query), sort)
  // The full list shows the confirmed players, then the waitlist in its order; every card says
  // where its player waits: counted here when the list is held whole, else as the server said.
  const partial = !!viewPages || !!data?.next_cursor
  const waiting = partial ? shown.filter(isWaiting) : waitlist(players)
  const places = new Map(waiting.map((p, i) => [String(p.id), partial ? (p.place ?? 0) : i + 1]))
  const shownIds = new Set(shown.map((p) => String(p.id)))
  const shownConfirmed = limit ? shown : shown.filter((p) => !isWaiting(p))
  const shownWaiting = limit ? [] : waiting.filter((p) => shownIds.has(String(p.id)))
  const ownInList = players.some((p) => samePlayer(p.id, ownId))
  const ownShown = shownIds.has(String(ownId))
  // Thousands of cards are rendered a window at a time, confirmed then waiting; the player sent
  // here to find their own card gets a window that holds it.
  const ordered = limit ? shown : [...shownConfirmed, ...shownWaiting]
  const ownAt = focusOwn ? ordered.findIndex((p) => samePlayer(p.id, ownId)) + 1 : 0
  const { shown: windowSize, more: moreCards, sentinel, showMore } = useGrowingWindow(ordered.length, { reset: `${search}|${sort}`, atLeast: ownAt })
  const inWindow = new Set(ordered.slice(0, windowSize).map((p) => String(p.id)))
  // The window reached the end of what is read: the next page comes.
  const nextPage = !limit && !moreCards && (served ? !!viewPages && !!view.hasNextPage : !!data?.next_cursor)
  const { fetchNextPage, isFetchingNextPage } = view
  useEffect(() => {
    if (!nextPage) return
    if (viewPages) {
      if (!isFetchingNextPage) void fetchNextPage()
    } else readMore()
  }, [nextPage, viewPages, isFetchingNextPage, fetchNextPage, readMore, windowSize])
  const found = viewPages ? (viewPages[0]?.matched ?? shown.length) : shown.length
  const windowed = (list: Player[]) => (limit ? list : list.filter((p) => inWindow.has(String(p.id))))

  // Sent here to find their own card: a search typed earlier must not hide it.
  if (focusOwn && ownInList && !ownShown && query && !limit) setQuery('')

  useEffect(() => {
    if (!focusOwn || focused.current || !ownShown || !ownCard.current) return
    focused.current = true
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    ownCard.current.scrollIntoView({ block: 'center', behavior: reduce ? 'auto' : 'smooth' })
    ownCard.current.querySelector<HTMLElement>('.player-card-btn')?.focus({ preventScroll: true })
    onFocusedOwn?.()
  }, [focusOwn, ownShown, onFocusedOwn])

  if (isLoading) return <Spinner label="Loading players" />
  if (isError || !data)
    return (
      <EmptyState title="The player list could not be loaded.">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => refetch()}>
          Try again
        </button>
      </EmptyState>
    )
  if (players.length === 0)
    return <EmptyState title="No players registered yet.">Be the first: press REGISTER and upload your stats.</EmptyState>

  const grid = (list: Player[], testId = 'player-grid') => {
    return (
      <ul className="player-grid" data-testid={testId}>
        {list.map((p) => {
          const mine = samePlayer(p.id, ownId)
          return (
            <PlayerCard
              key={p.id}
              player={p}
              onOpen={setOpen}
              own={mine}
              place={places.get(String(p.id)) ?? 0}
              cardRef={
                mine
                  ? (el) => {
                      ownCard.current = el
                      fadeRef(el)
                    }
                  : fadeRef
              }
            />
          )
        })}
      </ul>
    )
  }

  const filtered = !limit && query.trim() !== ''
  return (
    <>
      <p className="count-line" aria-live="polite">
        {filtered ? (
          <>
            Showing <strong data-testid="shown-count">{served && !viewPages ? '…' : found}</strong> of{' '}
          </>
        ) : null}
        <strong data-testid="player-count">{data.count}</strong> {data.count === 1 ? 'player' : 'players'} registered for{' '}
        {data.tournament}
        {!limit && (waiting.length > 0 || (data.cap ?? 0) > 0) ? (
          <span className="muted" data-testid="places-line">
            {' '}
            · {placesLine(data.next_cursor ? { confirmed: data.confirmed ?? 0, waitlisted: data.waitlisted ?? 0 } : players, data.cap ?? 0)}
          </span>
        ) : null}
      </p>
      {!limit ? (
        <div className="player-tools" role="search" aria-label="Find a player">
          <TextField fieldClassName="player-search" label="Search" type="search" placeholder="Name or Discord name" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" spellCheck={false} />
          <Field id={sortId} label="Sort by" className="player-sort">
            <select id={sortId} value={sort} onChange={(e) => isPlayerSort(e.target.value) && setSort(e.target.value)}>
              {PLAYER_SORTS.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
      ) : null}
      {served && !viewPages ? (
        <Spinner label={search ? 'Searching the players' : 'Sorting the players'} />
      ) : shown.length === 0 ? (
        <EmptyState title={`No player matches “${query.trim()}”.`}>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setQuery('')}>
            Clear the search
          </button>
        </EmptyState>
      ) : (
        <>
          {shownConfirmed.length > 0 ? grid(windowed(shownConfirmed)) : null}
          {windowed(shownWaiting).length > 0 ? (
            <section className="waitlist" aria-labelledby="waitlist-title">
              <h3 id="waitlist-title">
                Waitlist <small className="muted">({data.next_cursor ? (data.waitlisted ?? waiting.length) : waiting.length}, in order)</small>
              </h3>
              {grid(windowed(shownWaiting), 'waitlist-grid')}
            </section>
          ) : null}
          {moreCards ? (
            <div ref={sentinel} className="list-more">
              <button type="button" className="btn btn-ghost btn-sm" onClick={showMore}>
                Show more players ({ordered.length - windowSize} more)
              </button>
            </div>
          ) : (viewPages ? view.hasNextPage : data.next_cursor) ? (
            <p className="muted list-more">Loading more players…</p>
          ) : null}
        </>
      )}
      <PlayerModalOnDemand player={open} onClose={() => setOpen(null)} />
    </>
  )
}
