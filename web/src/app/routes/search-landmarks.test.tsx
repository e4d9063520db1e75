import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { AppRoutes } from '../router'
import './search'

// axe-core's landmark-unique: two search landmarks on one page need names that tell them apart
// (the header's search and the search page's own).
describe('/search', () => {
  it.each([
    ['signed out', null],
    ['an organiser', makeUser({ role: 'admin' })],
  ])('names each of its search landmarks differently, %s', async (_, user) => {
    mockApi({
      'GET /config': { body: { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' } },
      'GET /players': { body: { players: [], teams: [], next_cursor: null } },
    })
    renderApp(<AppRoutes />, { route: '/search?q=ace', user })
    await waitFor(() => expect(screen.getAllByRole('search')).toHaveLength(2))
    const names = screen.getAllByRole('search').map((el) => el.getAttribute('aria-label') ?? '')
    expect(names.every((n) => n.trim() !== '')).toBe(true)
    expect(new Set(names).size).toBe(names.length)
    expect(screen.getByRole('search', { name: 'Site search' })).toBeInTheDocument()
  })
})
