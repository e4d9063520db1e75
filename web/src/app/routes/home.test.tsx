import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { OPEN_AUTH_MODAL, OPEN_STATS_UPLOAD } from '@/lib/window-events'
import HomeRoute from './home'

const api = () =>
  mockApi({
    'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
    'GET /tournament/teams': { body: { tournament: 'PPL7', teams: [] } },
    'GET /tournament/info': { body: { name: 'PPL7', status: 'registration', registration_open: true, count: 0 } },
  })

describe('home page', () => {
  it("shows the hero 'PPLS-6.0 is back' and the anchors", async () => {
    api()
    renderApp(<HomeRoute />)
    expect(screen.getByRole('heading', { level: 1, name: 'PPLS-6.0 is back' })).toBeInTheDocument()
    for (const id of ['home', 'tournament', 'news', 'help', 'privacy', 'terms']) expect(document.getElementById(id)).not.toBeNull()
    expect(await screen.findByText('No players registered yet.')).toBeInTheDocument()
  })

  it('REGISTER opens the auth modal in register mode', async () => {
    api()
    const seen = vi.fn()
    window.addEventListener(OPEN_AUTH_MODAL, seen)
    renderApp(<HomeRoute />)
    act(() => screen.getByRole('button', { name: 'REGISTER' }).click())
    expect((seen.mock.calls[0][0] as CustomEvent).detail).toEqual({ mode: 'register' })
    window.removeEventListener(OPEN_AUTH_MODAL, seen)
  })

  it('?showStatsUpload=true fires openStatsUpload and clears the query without a reload', async () => {
    api()
    const replace = vi.spyOn(window.history, 'replaceState')
    const seen = vi.fn()
    window.addEventListener(OPEN_STATS_UPLOAD, seen)
    renderApp(<HomeRoute />, { route: '/?showStatsUpload=true#news' })
    await waitFor(() => expect(seen).toHaveBeenCalledTimes(1))
    expect(replace).toHaveBeenLastCalledWith(null, '', '/#news')
    expect(window.location.search).toBe('')
    expect(window.location.hash).toBe('#news')
    window.removeEventListener(OPEN_STATS_UPLOAD, seen)
  })

  it('does nothing for other values', async () => {
    api()
    const seen = vi.fn()
    window.addEventListener(OPEN_STATS_UPLOAD, seen)
    renderApp(<HomeRoute />, { route: '/?showStatsUpload=false' })
    // Once the page has its data (waited for inside act), the event has had every chance to fire.
    await screen.findByText('No players registered yet.')
    expect(seen).not.toHaveBeenCalled()
    expect(window.location.search).toBe('?showStatsUpload=false')
    window.removeEventListener(OPEN_STATS_UPLOAD, seen)
    window.history.replaceState(null, '', '/')
  })
})

describe('back from Link Discord', () => {
  it('?discord=linked keeps the outcome, clears the query and opens the profile', async () => {
    api()
    const seen = vi.fn()
    window.addEventListener(OPEN_AUTH_MODAL, seen)
    renderApp(<HomeRoute />, { route: '/?discord=linked&message=Discord+account+linked+and+verified%21' })
    await waitFor(() => expect(seen).toHaveBeenCalledTimes(1))
    expect((seen.mock.calls[0][0] as CustomEvent).detail).toEqual({ mode: 'login' })
    expect(window.location.search).toBe('')
    expect(window.sessionStorage.getItem('pitlane.discordOutcome')).toContain('linked and verified')
    window.removeEventListener(OPEN_AUTH_MODAL, seen)
    window.sessionStorage.clear()
  })
})
