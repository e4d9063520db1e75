import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { isChunkLoadError } from '@/lib/offline'
import { lazyPage } from './lazy-page'
import type { PageModule } from './page-chunks'
import { SiteLayout } from './site-layout'

/** What a browser throws for a page chunk it could not fetch (Chromium's words). */
const chunkFailure = () => new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/league-DruBWsPp.js')

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online)
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'))
  })
}

afterEach(() => vi.restoreAllMocks())

describe('a page whose chunk cannot be loaded', () => {
  it('offline: the site stays, with a note, and the page comes once the connection is back', async () => {
    mockApi({})
    let fail = true
    const load = vi.fn(async (): Promise<PageModule> => {
      if (fail) throw chunkFailure()
      return { default: () => <h1>The league’s records</h1> }
    })
    const Page = lazyPage(load)
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    renderApp(
      <SiteLayout>
        <Page />
      </SiteLayout>,
      { route: '/league' },
    )
    const note = await screen.findByRole('alert')
    expect(note).toHaveTextContent('You are offline: this page was not loaded before.')
    expect(note).toHaveTextContent('It opens by itself when the connection is back.')
    // The site's layout is still there: the header and its links.
    expect(screen.getByRole('banner')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Pitlane home' })).toBeInTheDocument()
    // Offline, the chunk is not asked for again and again.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 100))
    })
    expect(load).toHaveBeenCalledTimes(1)

    fail = false
    setOnline(true)
    expect(await screen.findByRole('heading', { name: 'The league’s records' })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('online: says the page could not be loaded, and Try again loads it', async () => {
    mockApi({})
    let fail = true
    const Page = lazyPage(async (): Promise<PageModule> => {
      if (fail) throw chunkFailure()
      return { default: () => <h1>Search</h1> }
    })
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    renderApp(
      <SiteLayout>
        <Page />
      </SiteLayout>,
      { route: '/search' },
    )
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be loaded.')
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { name: 'Search' })).toBeInTheDocument()
  })

  it('tells a chunk that did not load from other errors, in each browser’s words', () => {
    expect(isChunkLoadError(chunkFailure())).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://localhost/assets/a.js'))).toBe(true) // Firefox
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true) // Safari
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/league.css'))).toBe(true) // Vite's preload
    expect(isChunkLoadError(new Error('a bug in the page'))).toBe(false)
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'name')"))).toBe(false)
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false)
  })
})
