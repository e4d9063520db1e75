import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { makePlayer, makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { LocationProbe, visit, type InitialEntry } from '@/testing/render'
import type { User } from '@/lib/auth'
import { TOKEN_KEY } from '@/lib/api-client'
import { OWN_CARD_LINK } from '../links'
import { AppProvider } from '../provider'
import { AppRoutes } from '../router'
// The pages and the tournament's tabs load lazily in the app; imported here up front, a busy
// machine does not time out the first test of each while its chunk compiles.
import './home'
import './tournament'
import '@/features/tournament/components/registered-players'
import '@/features/teams/components/teams-grid'
import '@/features/matches/components/bracket-view'
import '@/features/matches/components/standings'
import '@/features/auth/components/captain-modal'

function at(path: InitialEntry, user: User | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  client.setQueryData(['auth', 'user'], user)
  if (user) window.localStorage.setItem(TOKEN_KEY, 'test-token')
  visit(path)
  return render(
    <AppProvider client={client} live={false}>
      <AppRoutes />
      <LocationProbe />
    </AppProvider>,
  )
}

const routes = {
  'GET /config': { body: { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' } },
  'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
  'GET /tournament/teams': {
    body: {
      tournament: 'PPL7',
      teams: 'ABCDEFGH'.split('').map((l, i) => ({ id: i + 1, letter: l, name: `Team ${l}`, logo: '', captain: null, players: [] })),
    },
  },
  'GET /tournament/info': { body: { name: 'PPL7', status: 'registration', registration_open: true, count: 0 } },
}

describe('routes', () => {
  it('unknown paths show a real not-found page', async () => {
    mockApi(routes)
    at('/no/such/page')
    expect(await screen.findByRole('heading', { name: 'Off the track' })).toBeInTheDocument()
    expect(screen.getByText('/no/such/page', { selector: 'code' })).toBeInTheDocument()
  })

  it('/tournament shows the tabs, the captain button and eight team cards', async () => {
    mockApi(routes)
    at('/tournament?tab=teams')
    expect(await screen.findByRole('button', { name: 'Sign in as Captain' })).toBeInTheDocument()
    expect(await screen.findAllByRole('heading', { level: 3, name: /^Team [A-H]$/ })).toHaveLength(8)
    expect(screen.getAllByText('Open slot')).toHaveLength(40)
  })

  it('a signed-in captain or organiser is linked to their own view instead of the captain sign-in', async () => {
    mockApi(routes)
    at('/tournament', makeUser({ role: 'captain' }))
    expect(await screen.findByRole('link', { name: 'My captain view' })).toHaveAttribute('href', '/captain')
    expect(screen.queryByRole('button', { name: 'Sign in as Captain' })).not.toBeInTheDocument()
  })

  it('after registering: the Reg Player tab, with the own card highlighted and scrolled to', async () => {
    const players = Array.from({ length: 61 }, (_, i) => makePlayer(i + 1))
    mockApi({ ...routes, 'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 61, seq: 3, players } } })
    at({ pathname: '/tournament', search: '?tab=reg', state: OWN_CARD_LINK.state }, makeUser({ id: 61, tournament_registered: true }))
    expect(await screen.findByRole('tab', { name: 'Reg Player' })).toHaveAttribute('aria-selected', 'true')
    const own = await screen.findByRole('button', { name: 'Player 61 (you): details' })
    await waitFor(() => expect(own).toHaveFocus())
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled()
    // The request is used up: the URL stays on the tab.
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/tournament\?tab=reg$/)
  })

  it('/contact shows the portfolio, the seed skills and three projects', async () => {
    mockApi(routes)
    at('/contact')
    expect(await screen.findByRole('heading', { name: 'Skills' })).toBeInTheDocument()
    for (const s of ['Node.js', 'React/Vite', 'JavaScript', 'Python and AI/ML basics', 'REST APIs and webhooks', 'Auth and JWT', 'MySql', 'Git/GitHub and CI basics', 'UI/UX and theming'])
      expect(screen.getByText(s)).toBeInTheDocument()
    const projects = screen.getByRole('heading', { name: 'Projects' }).parentElement!
    expect(projects.querySelectorAll('.project-card')).toHaveLength(3)
  })

  it('/ppt shows the deck, with a way to follow the presenter', async () => {
    mockApi(routes)
    at('/ppt')
    expect(await screen.findByText('Slide 1 of 10')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Follow the presenter live/ })).toHaveAttribute('href', '/ppt?follow')
  })

  it("the footer's Presentation opens the following view at the presenter's slide; the deck is one click away", async () => {
    mockApi({ ...routes, 'GET /deck': { body: { slide: 4, seq: 2 } } })
    at('/contact')
    const footer = await screen.findByRole('contentinfo')
    expect(within(footer).getByRole('link', { name: 'Slide deck' })).toHaveAttribute('href', '/ppt')
    fireEvent.click(within(footer).getByRole('link', { name: 'Presentation (live)' }))
    expect(await screen.findByText('Following the presenter')).toBeInTheDocument()
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/ppt\?follow$/)
    await waitFor(() => expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 4 of 10'))

    // Browsing alone, then following again: the deck goes back to the presenter's slide.
    fireEvent.click(screen.getByRole('link', { name: /Browse the slides yourself/ }))
    fireEvent.click(await screen.findByRole('button', { name: /Go to slide 9/ }))
    expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 9 of 10')
    fireEvent.click(screen.getByRole('link', { name: /Follow the presenter live/ }))
    await waitFor(() => expect(screen.getByTestId('deck-counter')).toHaveTextContent('Slide 4 of 10'))
  })
})
