import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { LiveClient } from '@/lib/live-client'
import { Deck } from './deck'
import { SLIDES } from './slides'

const key = (k: string) => fireEvent.keyDown(window, { key: k })

describe('Deck', () => {
  it('has the ten seed titles', () => {
    expect(SLIDES.map((s) => s.title)).toEqual([
      'Pitlane',
      'Project Overview',
      '4-Case Registration Flow',
      'Database Schema',
      'API Architecture',
      'Discord Bot Integration',
      'UI/UX Design',
      'Security & Performance',
      'Success Metrics & Goals',
      'Future Roadmap',
    ])
  })

  it("opens with the current season's hero line, which the route gives it", () => {
    mockApi({})
    const { unmount } = renderApp(<Deck season="The Winter Cup is on" />)
    expect(screen.getByText('The Winter Cup is on')).toHaveClass('slide-kicker')
    unmount()
    renderApp(<Deck />)
    expect(document.querySelector('.slide-kicker')).toBeNull()
  })

  it('Previous is disabled on the first slide and Next on the last', () => {
    mockApi({})
    renderApp(<Deck />)
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 1 of 10')
    fireEvent.click(screen.getByRole('button', { name: /Go to slide 10/ }))
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 10 of 10')
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Future Roadmap')
  })

  it('arrow keys wrap around', () => {
    mockApi({})
    renderApp(<Deck />)
    key('ArrowLeft')
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 10 of 10')
    key('ArrowRight')
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 1 of 10')
    key('ArrowRight')
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 2 of 10')
  })

  it("double-click enters fullscreen with 'N / 10'; Escape leaves it, a second Escape goes to /", () => {
    mockApi({})
    renderApp(<Deck />, { route: '/ppt' })
    key('ArrowRight')
    fireEvent.doubleClick(screen.getByTestId('deck-stage'))
    expect(screen.getByText('2 / 10')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument()
    key('Escape')
    expect(screen.queryByText('2 / 10')).not.toBeInTheDocument()
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 2 of 10')
    expect(screen.getByTestId('location')).toHaveTextContent('/ppt')
    key('Escape')
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/)
  })

  it("an admin presenter publishes every change with POST /api/deck", async () => {
    const api = mockApi({
      'GET /deck': { body: { slide: 3, seq: 5 } },
      'POST /deck': (req) => ({ body: { slide: (req.body as { slide: number }).slide, seq: 6 } }),
    })
    renderApp(<Deck />, { user: makeUser({ role: 'admin' }) })
    await waitFor(() => expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 3 of 10'))
    key('ArrowRight')
    await waitFor(() => expect(api.callsTo('POST', '/deck')).toHaveLength(1))
    expect(api.callsTo('POST', '/deck')[0].body).toEqual({ slide: 4 })
  })

  it('a player does not publish', async () => {
    const api = mockApi({})
    renderApp(<Deck />, { user: makeUser() })
    key('ArrowRight')
    await new Promise((r) => setTimeout(r, 20))
    expect(api.callsTo('POST', '/deck')).toHaveLength(0)
  })
})

describe('The goals slide', () => {
  it('shows each goal with what the site measures now, from the public summary', async () => {
    mockApi({
      'GET /metrics/summary': {
        body: {
          tournament: 'PPL7',
          generated_at: '2026-11-28T20:00:00Z',
          targets: [
            { id: 'registered_users', label: 'registered users', goal: '100+', value: 112, display: '112', ok: true },
            { id: 'error_rate', label: 'error rate', goal: '< 1%', value: 0.02, display: '2%', ok: false },
            { id: 'uptime', label: 'uptime', goal: '99.9%', value: null, display: '—', ok: null },
          ],
        },
      },
    })
    renderApp(<Deck />)
    fireEvent.click(screen.getByRole('button', { name: /Go to slide 9/ }))
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Success Metrics & Goals')
    // The goals stand at once; the figures come with the summary.
    expect(screen.getByTestId('goal-registered_users')).toHaveTextContent('100+registered users')
    await waitFor(() => expect(screen.getByTestId('goal-registered_users')).toHaveTextContent('now 112 ✓'))
    expect(screen.getByTestId('goal-registered_users')).toHaveClass('met')
    expect(screen.getByTestId('goal-error_rate')).toHaveClass('missed')
    expect(screen.getByTestId('goal-uptime')).not.toHaveTextContent('now')
  })
})

describe('Deck follower', () => {
  it('starts at the shared slide and follows slide.changed on the deck topic', async () => {
    mockApi({ 'GET /deck': { body: { slide: 2, seq: 9 } } })
    const client = new LiveClient()
    const { LiveProvider } = await import('@/lib/live')
    renderApp(
      <LiveProvider enabled={false} client={client}>
        <Deck follow />
      </LiveProvider>,
    )
    await waitFor(() => expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 2 of 10'))
    expect(screen.getByText(/Following the presenter/)).toBeInTheDocument()
    const sent: unknown[] = []
    act(() => client.open((f) => sent.push(f), null))
    expect(sent).toContainEqual({ type: 'subscribe', topics: ['deck'], since: { deck: 9 } })
    act(() => client.handleFrame(JSON.stringify({ type: 'event', topic: 'deck', seq: 10, event: 'slide.changed', data: { slide: 7 } })))
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 7 of 10')
  })
})
