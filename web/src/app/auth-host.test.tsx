import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { makeTournamentInfo } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { AUTH_COMPLETE, openAuthModal, openStatsUpload } from '@/lib/window-events'
import { infoKey } from '@/features/tournament/api/registrations'
import type { TournamentStatus } from '@/features/tournament/types'
import { AuthHost } from './auth-host'

beforeAll(async () => {
  await import('./auth-flow') // warm the lazy chunk so fake-timer tests need no real I/O
})

const noStats = { 'GET /stats/get': { body: { success: true, stats: null } } }

/** The season's phase as the page has it (registration unless a test says otherwise). */
const inPhase = (status: TournamentStatus): [readonly unknown[], unknown][] => [[infoKey('PPL7'), makeTournamentInfo(status)]]
const registering = inPhase('registration')

async function openIn(mode: Parameters<typeof openAuthModal>[0]) {
  act(() => openAuthModal(mode))
  const dialog = await screen.findByRole('dialog')
  await waitFor(() => expect(dialog.querySelector('[data-view="loading"]')).toBeNull())
  return dialog
}

/** Opens the modal at Register and signs in from its Sign In tab as rider@example.com. */
async function signInToRegister() {
  const dialog = await openIn('register')
  fireEvent.click(within(dialog).getByRole('tab', { name: 'Sign In' }))
  await within(dialog).findByRole('button', { name: 'Sign In' })
  fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'rider@example.com' } })
  fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'pw' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }))
  return dialog
}

describe('auth modal opened by window events', () => {
  it('openAuthModal {mode: login} shows Sign In, with tabs', async () => {
    mockApi({})
    renderApp(<AuthHost />, { queries: registering })
    const dialog = await openIn('login')
    expect(within(dialog).getByRole('heading', { name: 'Sign In' })).toBeInTheDocument()
    expect(within(dialog).getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true')
    expect(within(dialog).getByRole('tab', { name: 'Sign Up' })).toBeInTheDocument()
    expect(document.body).toHaveClass('modal-open')
  })

  it('openStatsUpload opens the stats upload view', async () => {
    mockApi({})
    renderApp(<AuthHost />, { queries: registering })
    act(() => openStatsUpload())
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('button', { name: 'UPLOAD STATS' })).toBeDisabled()
  })

  it('switches tabs after the 200 ms modal delay', async () => {
    vi.useFakeTimers()
    mockApi({})
    renderApp(<AuthHost />, { queries: registering })
    act(() => openAuthModal('login'))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    const dialog = screen.getByRole('dialog')
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Sign Up' }))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(199)
    })
    expect(within(dialog).queryByLabelText('Confirm password')).not.toBeInTheDocument()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1)
    })
    expect(within(dialog).getByLabelText('Confirm password')).toBeInTheDocument()
  })

  it('hides the Google button when no client id is configured', async () => {
    mockApi({})
    renderApp(<AuthHost />, { queries: registering })
    const dialog = await openIn('login')
    expect(within(dialog).queryByText('or')).not.toBeInTheDocument()
  })

  describe('resume cases when opened in register mode while signed in', () => {
    it('case 1: Discord step', async () => {
      mockApi(noStats)
      renderApp(<AuthHost />, { queries: registering, user: makeUser({ discord_username: null }) })
      const dialog = await openIn('register')
      expect(within(dialog).getByRole('heading', { name: 'Link your Discord' })).toBeInTheDocument()
      expect(within(dialog).getByRole('list', { name: 'Registration progress' })).toBeInTheDocument()
      expect(within(dialog).getByText('Discord').closest('li')).toHaveAttribute('aria-current', 'step')
    })

    it('case 2: stats upload', async () => {
      mockApi(noStats)
      renderApp(<AuthHost />, { queries: registering, user: makeUser() })
      const dialog = await openIn('register')
      expect(await within(dialog).findByRole('button', { name: 'UPLOAD STATS' })).toBeInTheDocument()
      expect(within(dialog).getByText('SK stats').closest('li')).toHaveAttribute('aria-current', 'step')
    })

    it('case 3: registration, with the saved stats card', async () => {
      mockApi({
        'GET /stats/get': { body: { success: true, stats: { sk_id: 'SK9', level: 30, kills: 10, deaths: 5, games_played: 20, kd: 2, category: 2, cart_image: null } } },
      })
      renderApp(<AuthHost />, { queries: registering, user: makeUser({ sk_stats_uploaded: true }) })
      const dialog = await openIn('register')
      expect(await within(dialog).findByRole('button', { name: 'Register for PPL7' })).toBeInTheDocument()
      expect(within(dialog).getByText('Tier', { selector: 'dt' }).nextElementSibling).toHaveTextContent('2')
      expect(within(dialog).getByRole('button', { name: 'REUPLOAD SK STATS' })).toBeInTheDocument()
    })

    it('case 4: fully registered shows the already-registered screen', async () => {
      mockApi(noStats)
      renderApp(<AuthHost />, { queries: registering, user: makeUser({ sk_stats_uploaded: true, tournament_registered: true }) })
      const dialog = await openIn('register')
      expect(await within(dialog).findByRole('heading', { name: 'You are already registered!' })).toBeInTheDocument()
      expect(within(dialog).getByText('You are already registered for the tournament!', { selector: 'p.msg' })).toBeInTheDocument()
      expect(within(dialog).getByRole('button', { name: 'Go to Tournament Page' })).toBeInTheDocument()
      fireEvent.click(within(dialog).getByRole('button', { name: 'Upload New Stats' }))
      expect(within(dialog).getByRole('button', { name: 'UPLOAD STATS' })).toBeInTheDocument()
    })
  })

  describe('outside registration the path ends at the saved stats (the server refuses Register there)', () => {
    const savedStats = { sk_id: 'SK9', level: 30, kills: 10, deaths: 5, games_played: 20, kd: 2, category: 2, cart_image: null }

    it.each(['auction', 'matches', 'completed'] as const)('%s: the card offers no Register, says why and what comes next', async (phase) => {
      const api = mockApi({
        'GET /stats/get': { body: { success: true, stats: savedStats } },
        'GET /tournaments': { body: { tournaments: [{ name: 'PPL7', status: phase, current: true, display_name: 'PPLS-6.0' }] } },
        'POST /newsletter': { status: 201, body: { message: 'Thanks for subscribing! League news will reach your inbox.' } },
      })
      renderApp(<AuthHost />, { queries: inPhase(phase), user: makeUser({ sk_stats_uploaded: true }) })
      const dialog = await openIn('register')
      const closed = await within(dialog).findByTestId('registration-closed')
      expect(closed).toHaveTextContent('Registration for PPLS-6.0 is closed')
      expect(closed).toHaveTextContent('Your stats are saved')
      expect(await within(closed).findByText(/not announced yet/)).toBeInTheDocument()
      expect(within(dialog).queryByRole('button', { name: /^Register for/ })).toBeNull()
      expect(within(dialog).getByRole('heading', { name: 'rider#1' })).toBeInTheDocument()
      // The last step is closed, not the one in progress.
      const last = within(dialog).getByText('Register').closest('li')!
      expect(last).not.toHaveAttribute('aria-current')
      expect(last).toHaveTextContent('(closed)')
      expect(within(dialog).queryByText(/current step/)).toBeNull()
      fireEvent.click(within(closed).getByRole('button', { name: 'Get league news by e-mail' }))
      expect(await within(closed).findByText('Thanks for subscribing! League news will reach your inbox.')).toBeInTheDocument()
      expect(api.callsTo('POST', '/newsletter')[0].body).toEqual({ email: 'rider@example.com' })
      expect(api.callsTo('POST', '/tournament/register')).toHaveLength(0)
    })

    it('matches: a next season taking registrations is offered instead, with its days', async () => {
      const api = mockApi({
        'GET /stats/get': { body: { success: true, stats: savedStats } },
        'GET /tournaments': {
          body: {
            tournaments: [
              { name: 'PPL8', status: 'registration', current: false, display_name: 'Season 8', starts_at: '2027-01-09', ends_at: null },
              { name: 'PPL7', status: 'matches', current: true, display_name: 'PPLS-6.0' },
            ],
          },
        },
        'POST /tournament/register': { body: { success: true, registered: true, message: 'You are registered for PPL8.' } },
      })
      renderApp(<AuthHost />, { queries: inPhase('matches'), user: makeUser({ sk_stats_uploaded: true }) })
      const dialog = await openIn('register')
      const closed = await within(dialog).findByTestId('registration-closed')
      expect(await within(closed).findByText(/is taking registrations now/)).toHaveTextContent('The next season, Season 8 (from 9 Jan 2027), is taking registrations now.')
      expect(within(dialog).queryByRole('button', { name: 'Register for PPL7' })).toBeNull()
      fireEvent.click(within(closed).getByRole('button', { name: 'Register for Season 8' }))
      expect(await within(closed).findByText('You are registered for PPL8.')).toBeInTheDocument()
      expect(api.callsTo('POST', '/tournament/register')[0].body).toEqual({ tournamentName: 'PPL8' })
    })

    it('matches: register mode signed out, then signed in with stats: no registration is attempted', async () => {
      const user = makeUser({ sk_stats_uploaded: true })
      const api = mockApi({
        'POST /auth/login': { body: { token: 'jwt', user } },
        'GET /stats/get': { body: { success: true, stats: savedStats } },
        'GET /tournaments': { body: { tournaments: [] } },
      })
      renderApp(<AuthHost />, { queries: inPhase('matches') })
      const dialog = await signInToRegister()
      expect(await within(dialog).findByTestId('registration-closed')).toBeInTheDocument()
      expect(api.callsTo('POST', '/tournament/register')).toHaveLength(0)
    })

    it('matches: the profile of a player not registered offers no Register', async () => {
      mockApi({ 'GET /tournaments': { body: { tournaments: [] } } })
      renderApp(<AuthHost />, { queries: inPhase('matches'), user: makeUser({ sk_stats_uploaded: true }) })
      const dialog = await openIn('login')
      expect(within(dialog).getByRole('heading', { name: 'Your profile' })).toBeInTheDocument()
      expect(await within(dialog).findByTestId('registration-closed')).toHaveTextContent('Registration for PPLS-6.0 is closed: its matches are on.')
      expect(within(dialog).queryByRole('button', { name: /^Register for/ })).toBeNull()
    })
  })

  it('sign-up → OTP → 2 s → automatic login → stats upload (the name typed at sign-up is the Discord step), firing authComplete', async () => {
    vi.useFakeTimers()
    const user = makeUser({ discord_username: 'zoom', discord_verified: false })
    const api = mockApi({
      'POST /auth/signup': { status: 201, body: { message: 'Account created! Please check your email for OTP verification.' } },
      'POST /auth/verify-otp': { body: { message: 'Email verified successfully! You can now login.' } },
      'POST /auth/login': { body: { token: 'jwt', user } },
      ...noStats,
    })
    const onComplete = vi.fn()
    window.addEventListener(AUTH_COMPLETE, onComplete)
    renderApp(<AuthHost />, { queries: registering })
    act(() => openAuthModal('signup'))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    const dialog = screen.getByRole('dialog')
    const fill = (label: string, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } })
    fill('Discord username', 'zoom')
    fill('Email', 'new@example.com')
    fill('Password', 'pw123456')
    fill('Confirm password', 'pw123456')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign Up' }))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    expect(within(dialog).getByText('Account created! Please check your email for OTP verification.')).toBeInTheDocument()
    // A code was just sent: asking for another waits a minute, counting down.
    expect(within(dialog).getByRole('button', { name: 'Resend OTP in 60 s' })).toBeDisabled()
    fireEvent.change(within(dialog).getByLabelText(/Verification code/), { target: { value: '654321' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify OTP' }))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000)
    })
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    expect(api.callsTo('POST', '/auth/login')).toHaveLength(1)
    expect(window.localStorage.getItem('token')).toBe('jwt')
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(within(dialog).getByRole('button', { name: 'UPLOAD STATS' })).toBeInTheDocument()
    window.removeEventListener(AUTH_COMPLETE, onComplete)
  })

  it("Google sign-in: 'Google login successful!', then the Discord step (the player's path)", async () => {
    const user = makeUser({ discord_username: null })
    mockApi({ 'POST /auth/google-login': { body: { token: 'g-jwt', user, message: 'Google login successful!' } }, ...noStats })
    let cfg: { callback: (r: { credential?: string }) => void } | null = null
    window.google = { accounts: { id: { initialize: (c: typeof cfg) => void (cfg = c), renderButton: () => undefined } } } as never
    const { client } = renderApp(<AuthHost />, { queries: registering })
    client.setQueryData(['config'], { google_client_id: 'cid', default_tournament: 'PPL7', extractor: 'ocr' })
    const dialog = await openIn('login')
    await waitFor(() => expect(cfg).not.toBeNull())
    await act(async () => cfg!.callback({ credential: 'id-token' }))
    expect(await within(dialog).findByText('Google login successful!')).toBeInTheDocument()
    expect(within(dialog).getByRole('heading', { name: 'Link your Discord' })).toBeInTheDocument()
    expect(window.localStorage.getItem('token')).toBe('g-jwt')
    delete window.google
  })

  it('register mode, signed out: after signing in, registration starts by itself when stats exist', async () => {
    const user = makeUser({ sk_stats_uploaded: true })
    const api = mockApi({
      'POST /auth/login': { body: { token: 'jwt', user } },
      'GET /stats/get': { body: { success: true, stats: { kd: 2, games_played: 10, category: 1 } } },
      'POST /tournament/register': { body: { success: true, registered: true } },
      'GET /auth/profile': { body: { user: { ...user, tournament_registered: true } } },
    })
    renderApp(<AuthHost />, { queries: registering })
    const dialog = await signInToRegister()
    expect(await within(dialog).findByText('Registration Successful!')).toBeInTheDocument()
    expect(api.callsTo('POST', '/tournament/register')).toHaveLength(1)
  })

  it('the profile of a registered player offers Unregister, with a confirmation', async () => {
    const user = makeUser({ sk_stats_uploaded: true, tournament_registered: true })
    const api = mockApi({
      'POST /tournament/unregister': { body: { success: true, registered: false, message: 'You are no longer registered for PPL7.' } },
      'GET /auth/profile': { body: { user: { ...user, tournament_registered: false } } },
    })
    renderApp(<AuthHost />, { queries: registering, user })
    const dialog = await openIn('login')
    expect(within(dialog).getByRole('heading', { name: 'Your profile' })).toBeInTheDocument()
    expect(within(dialog).getByText('✓ Registered for PPL7')).toBeInTheDocument()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unregister from PPL7' }))
    expect(api.callsTo('POST', '/tournament/unregister')).toHaveLength(0)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, unregister' }))
    expect(await within(dialog).findByText('You are not registered for PPL7.')).toBeInTheDocument()
    expect(within(dialog).getByText('You are no longer registered for PPL7.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/tournament/unregister')).toHaveLength(1)
    expect(within(dialog).getByRole('button', { name: 'Register for PPL7' })).toBeInTheDocument()
  })

  it('closes with Escape and removes modal-open', async () => {
    mockApi({})
    renderApp(<AuthHost />, { queries: registering })
    await openIn('login')
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(document.body).not.toHaveClass('modal-open')
  })

  it('traps focus inside the dialog', async () => {
    mockApi({})
    renderApp(<AuthHost />, { queries: registering })
    const dialog = await openIn('login')
    const focusables = within(dialog).getAllByRole('button')
    const last = focusables[focusables.length - 1]
    last.focus()
    fireEvent.keyDown(document, { key: 'Tab' })
    expect(dialog.contains(document.activeElement)).toBe(true)
    expect(document.activeElement).not.toBe(last)
  })
})
