import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { makePlayer, makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { LiveProvider } from '@/lib/live'
import { LiveClient } from '@/lib/live-client'
import { RegisteredPlayers } from './registered-players'

const frame = (seq: number, event: string, data: unknown) => JSON.stringify({ type: 'event', topic: 'registrations', seq, event, data })

type Extra = { user?: ReturnType<typeof makeUser>; focusOwn?: boolean; onFocusedOwn?: () => void; limit?: number }

function setup(players = [makePlayer(1), makePlayer(2)], seq = 40, extra: Extra = {}) {
  const api = mockApi({ 'GET /tournament/registrations': { body: { tournament: 'PPL7', count: players.length, seq, players } } })
  const client = new LiveClient()
  const sent: unknown[] = []
  renderApp(
    <LiveProvider enabled={false} client={client}>
      <RegisteredPlayers tournament="PPL7" focusOwn={extra.focusOwn} onFocusedOwn={extra.onFocusedOwn} limit={extra.limit} />
    </LiveProvider>,
    { user: extra.user ?? null },
  )
  act(() => client.open((f) => sent.push(f), null))
  return { api, client, sent }
}

describe('RegisteredPlayers (live)', () => {
  it('lists the players and subscribes from the seq the list was read at', async () => {
    const { sent, api } = setup()
    expect(await screen.findByText('Player 1')).toBeInTheDocument()
    expect(screen.getByTestId('player-count')).toHaveTextContent('2')
    expect(api.calls[0].query.get('tournamentName')).toBe('PPL7')
    await waitFor(() => expect(sent).toContainEqual({ type: 'subscribe', topics: ['registrations'], since: { registrations: 40 } }))
  })

  it('games a screenshot did not show are unknown (—), not zero', async () => {
    setup([makePlayer(1, { games_played: 0 }), makePlayer(2, { games_played: 1840 })])
    const unknown = (await screen.findByText('Player 1')).closest('li')!
    expect(within(unknown).getByTitle("Not on the player's screenshot")).toHaveTextContent('—')
    const known = screen.getByText('Player 2').closest('li')!
    expect(within(known).getByTitle('1840')).toHaveTextContent('1840')
  })

    it('a new player appears, and one who unregisters leaves, without a reload', async () => {
    const { client, api } = setup()
    await screen.findByText('Player 1')
    await waitFor(() => expect(client.lastSeq('registrations')).toBe(40))
    act(() => client.handleFrame(frame(41, 'player.registered', { player: makePlayer(3, { name: 'Newcomer' }) })))
    expect(await screen.findByText('Newcomer')).toBeInTheDocument()
    expect(screen.getByTestId('player-count')).toHaveTextContent('3')
    act(() => client.handleFrame(frame(42, 'player.unregistered', { id: 1 })))
    await waitFor(() => expect(screen.queryByText('Player 1')).not.toBeInTheDocument())
    expect(screen.getByTestId('player-count')).toHaveTextContent('2')
    expect(api.callsTo('GET', '/tournament/registrations')).toHaveLength(1)
  })

  it('refetches the list on resync', async () => {
    const { client, api } = setup()
    await screen.findByText('Player 1')
    act(() => client.handleFrame(JSON.stringify({ type: 'resync', topic: 'registrations' })))
    await waitFor(() => expect(api.callsTo('GET', '/tournament/registrations')).toHaveLength(2))
  })

  it('opens a detail modal for a card', async () => {
    setup([makePlayer(1, { name: 'Ace', kd: 3, games_played: 100, badges: [{ id: 1, name: 'Season 3 Winner', icon: 'trophy', color: '#FFD700' }] })])
    fireEvent.click(await screen.findByRole('button', { name: 'Ace: details' }))
    // The modal's code loads on the first open.
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Ace' })).toBeInTheDocument()
    expect(within(dialog).getByText('75')).toBeInTheDocument() // kills = round(3*100/4)
    expect(within(dialog).getByText(/Season 3 Winner/)).toBeInTheDocument()
  })

  it('a hidden profile is its name alone, on the card and in its modal', async () => {
    setup([makePlayer(1, { name: 'Shy', hidden: true, kd: 0, s_id: 'N/A', level: 0, games_played: 0, image: null })])
    const card = (await screen.findByText('Shy')).closest('li')!
    expect(within(card).getByText('Profile hidden')).toBeInTheDocument()
    expect(within(card).queryByText('K/D')).not.toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Shy: details' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText(/keeps their profile hidden/)).toBeInTheDocument()
    expect(within(dialog).queryByText('K/D ratio')).not.toBeInTheDocument()
    expect(within(dialog).queryByText(/Discord:/)).not.toBeInTheDocument()
  })

  it('fades cards in with threshold 0.1, margin 50px and a 0.03 s stagger', async () => {
    setup([makePlayer(1), makePlayer(2), makePlayer(3)])
    await screen.findByText('Player 3')
    const IO = (globalThis as unknown as { FakeIntersectionObserver: { instances: { options: IntersectionObserverInit; intersectAll: () => void }[] } })
      .FakeIntersectionObserver
    const io = IO.instances.at(-1)!
    expect(io.options).toMatchObject({ threshold: 0.1, rootMargin: '50px' })
    const cards = screen.getAllByRole('listitem').filter((li) => li.classList.contains('player-card'))
    expect(cards[0]).toHaveClass('fade-card')
    expect(cards[0]).not.toHaveClass('is-visible')
    act(() => io.intersectAll())
    expect(cards[0]).toHaveClass('is-visible')
    expect(cards[1].style.transitionDelay).toBe('0.03s')
    expect(cards[2].style.transitionDelay).toBe('0.06s')
  })

  it('says so when nobody has registered', async () => {
    setup([])
    expect(await screen.findByText('No players registered yet.')).toBeInTheDocument()
  })
})

const cardNames = () => screen.getAllByRole('button', { name: /: details$/ }).map((b) => b.getAttribute('aria-label')!.replace(/( \(you\))?: details$/, ''))

describe('RegisteredPlayers search and sort', () => {
  const league = [
    makePlayer(1, { name: 'Ace', discord_id: 'turbo.ace', kd: 3.2, level: 10, games_played: 50, created_at: '2026-01-01T00:00:00Z' }),
    makePlayer(2, { name: 'Blaze', discord_id: 'blaze', kd: 1.1, level: 60, games_played: 900, created_at: '2026-01-02T00:00:00Z' }),
    makePlayer(3, { name: 'Comet', discord_id: 'kometa', kd: 2.0, level: 30, games_played: 300, created_at: '2026-01-03T00:00:00Z' }),
  ]

  it('lists the newest registration first by default', async () => {
    setup(league)
    await screen.findByText('Comet')
    expect(screen.getByLabelText('Sort by')).toHaveValue('newest')
    expect(cardNames()).toEqual(['Comet', 'Blaze', 'Ace'])
  })

  it('searches by name or Discord name and says how many it shows', async () => {
    setup(league)
    await screen.findByText('Comet')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'TURBO' } })
    expect(cardNames()).toEqual(['Ace'])
    expect(screen.getByTestId('shown-count')).toHaveTextContent('1')
    expect(screen.getByTestId('player-count')).toHaveTextContent('3')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'kome' } })
    expect(cardNames()).toEqual(['Comet'])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'nobody' } })
    expect(screen.getByText('No player matches “nobody”.')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }))
    expect(cardNames()).toHaveLength(3)
  })

  it('sorts by name, K/D, level and games', async () => {
    setup(league)
    await screen.findByText('Comet')
    const sort = screen.getByLabelText('Sort by')
    fireEvent.change(sort, { target: { value: 'name' } })
    expect(cardNames()).toEqual(['Ace', 'Blaze', 'Comet'])
    fireEvent.change(sort, { target: { value: 'kd' } })
    expect(cardNames()).toEqual(['Ace', 'Comet', 'Blaze'])
    fireEvent.change(sort, { target: { value: 'level' } })
    expect(cardNames()).toEqual(['Blaze', 'Comet', 'Ace'])
    fireEvent.change(sort, { target: { value: 'games' } })
    expect(cardNames()).toEqual(['Blaze', 'Comet', 'Ace'])
  })

  it('the home list (limit) has no search or sort', async () => {
    setup(league, 40, { limit: 2 })
    await screen.findByText('Comet')
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument()
    expect(cardNames()).toEqual(['Comet', 'Blaze'])
  })
})

describe('the signed-in player’s own card', () => {
  const many = Array.from({ length: 61 }, (_, i) => makePlayer(i + 1))

  it('is highlighted with a You tag', async () => {
    setup(many, 40, { user: makeUser({ id: 61, tournament_registered: true }) })
    const own = await screen.findByRole('button', { name: 'Player 61 (you): details' })
    expect(own.closest('li')).toHaveClass('is-own')
    expect(own.closest('li')).toHaveTextContent('You')
    expect(document.querySelectorAll('.is-own')).toHaveLength(1)
  })

  it('is scrolled into view and focused when asked (after registering), once', async () => {
    const scrolled = vi.mocked(Element.prototype.scrollIntoView)
    scrolled.mockClear()
    const onFocusedOwn = vi.fn()
    setup(many, 40, { user: makeUser({ id: 61 }), focusOwn: true, onFocusedOwn })
    const own = await screen.findByRole('button', { name: 'Player 61 (you): details' })
    await waitFor(() => expect(onFocusedOwn).toHaveBeenCalledTimes(1))
    expect(scrolled).toHaveBeenCalledTimes(1)
    expect(scrolled.mock.contexts[0]).toBe(own.closest('li'))
    expect(own).toHaveFocus()
  })

  it('waits for the card to arrive live when the list was read before the registration', async () => {
    const onFocusedOwn = vi.fn()
    const { client } = setup([makePlayer(1)], 40, { user: makeUser({ id: 9 }), focusOwn: true, onFocusedOwn })
    await screen.findByText('Player 1')
    await waitFor(() => expect(client.lastSeq('registrations')).toBe(40))
    expect(onFocusedOwn).not.toHaveBeenCalled()
    act(() => client.handleFrame(frame(41, 'player.registered', { player: makePlayer(9, { name: 'Me' }) })))
    await waitFor(() => expect(onFocusedOwn).toHaveBeenCalledTimes(1))
    expect(screen.getByRole('button', { name: 'Me (you): details' })).toHaveFocus()
  })
})

describe('a list longer than its first page', () => {
  // 250 players; the server answers newest first, FIRST_PAGE then REGISTRATIONS_PAGE at a time.
  const all = Array.from({ length: 250 }, (_, i) => makePlayer(i + 1, { kd: 5 - i / 100, created_at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() }))
  function paged() {
    const api = mockApi({
      'GET /tournament/registrations': (req) => {
        // The server's orders: newest first, or K/D highest first (player 1's is the highest).
        const q = (req.query.get('q') ?? '').toLowerCase()
        const ordered = req.query.get('sort') === 'kd' ? all : [...all].reverse()
        const found = ordered.filter((p) => p.name.toLowerCase().includes(q))
        const from = Number(req.query.get('cursor') ?? 0)
        const limit = Number(req.query.get('limit'))
        const players = found.slice(from, from + limit)
        const next = from + limit < found.length ? String(from + limit) : null
        const matched = q ? { matched: found.length } : {}
        return { body: { tournament: 'PPL7', count: all.length, confirmed: all.length, waitlisted: 0, seq: 40, players, next_cursor: next, ...matched } }
      },
    })
    renderApp(<RegisteredPlayers tournament="PPL7" />)
    return api
  }
  const sentinelIO = () =>
    (globalThis as unknown as { FakeIntersectionObserver: { instances: { observed: Set<Element>; intersectAll: () => void }[] } }).FakeIntersectionObserver.instances.filter((io) =>
      [...io.observed].some((el) => el.classList.contains('list-more')),
    )

  it('reads only the newest page first, and the next as the visitor reaches its end', async () => {
    const api = paged()
    expect(await screen.findByText('Player 250')).toBeInTheDocument()
    expect(screen.getByTestId('player-count')).toHaveTextContent('250')
    const first = api.callsTo('GET', '/tournament/registrations')
    expect(first).toHaveLength(1)
    expect(first[0].query.get('sort')).toBe('newest')
    expect(first[0].query.get('limit')).toBe('100')
    // Scrolled to the end of the window twice: the 100 read are shown, then the next page comes.
    act(() => sentinelIO().at(-1)!.intersectAll())
    await waitFor(() => expect(api.callsTo('GET', '/tournament/registrations')).toHaveLength(2))
    expect(api.calls.at(-1)!.query.get('cursor')).toBe('100')
    expect(screen.queryByText('Player 1')).not.toBeInTheDocument()
  })

  it('a search of a list longer than its first page asks the server, which counts what it found', async () => {
    const api = paged()
    await screen.findByText('Player 250')
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'Player 7' } })
    expect(await screen.findByText('Player 7')).toBeInTheDocument()
    const asked = api.callsTo('GET', '/tournament/registrations').at(-1)!
    expect(asked.query.get('q')).toBe('Player 7')
    expect(asked.query.get('sort')).toBe('newest')
    expect(screen.getByTestId('shown-count')).toHaveTextContent(/^11$/) // 7 and 70-79
    expect(screen.getByTestId('player-count')).toHaveTextContent('250')
  })

  it('another order of a long list is the server’s, a page at a time', async () => {
    const api = paged()
    await screen.findByText('Player 250')
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'kd' } })
    await waitFor(() => expect(api.callsTo('GET', '/tournament/registrations').at(-1)!.query.get('sort')).toBe('kd'))
    expect(await screen.findByText('Player 1')).toBeInTheDocument() // the highest K/D
    expect(cardNames()[0]).toBe('Player 1')
  })
})
