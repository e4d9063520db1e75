import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makePlayer } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { LiveProvider } from '@/lib/live'
import { LiveClient } from '@/lib/live-client'
import { RegisteredPlayers } from './registered-players'

const frame = (seq: number, event: string, data: unknown) => JSON.stringify({ type: 'event', topic: 'registrations', seq, event, data })

function setup(players = [makePlayer(1), makePlayer(2)], seq = 40) {
  const api = mockApi({ 'GET /tournament/registrations': { body: { tournament: 'PPL7', count: players.length, seq, players } } })
  const client = new LiveClient()
  const sent: unknown[] = []
  renderApp(
    <LiveProvider enabled={false} client={client}>
      <RegisteredPlayers tournament="PPL7" />
    </LiveProvider>,
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
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Ace' })).toBeInTheDocument()
    expect(within(dialog).getByText('75')).toBeInTheDocument() // kills = round(3*100/4)
    expect(within(dialog).getByText(/Season 3 Winner/)).toBeInTheDocument()
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
