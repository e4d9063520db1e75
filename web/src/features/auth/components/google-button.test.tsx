import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { GoogleButton } from './google-button'

type Cfg = { client_id: string; callback: (r: { credential?: string }) => void }

function fakeGis() {
  const gis = { cfg: null as Cfg | null, rendered: false }
  window.google = {
    accounts: {
      id: {
        initialize: (cfg: Cfg) => {
          gis.cfg = cfg
        },
        renderButton: () => {
          gis.rendered = true
        },
      },
    },
  }
  return gis
}

afterEach(() => {
  delete window.google
})

describe('GoogleButton (Google Identity Services)', () => {
  it('is hidden when no client id is configured', () => {
    const { container } = render(<GoogleButton clientId="" onSignedIn={vi.fn()} />)
    expect(container).toBeEmptyDOMElement()
  })

  it('sends the ID token to the server and hands over the session', async () => {
    const user = makeUser()
    const api = mockApi({ 'POST /auth/google-login': { body: { token: 'jwt', user, message: 'Google login successful!' } } })
    const gis = fakeGis()
    const onSignedIn = vi.fn()
    render(<GoogleButton clientId="abc.apps.googleusercontent.com" onSignedIn={onSignedIn} />)
    await waitFor(() => expect(gis.rendered).toBe(true))
    expect(gis.cfg?.client_id).toBe('abc.apps.googleusercontent.com')
    await act(async () => gis.cfg!.callback({ credential: 'id-token' }))
    expect(api.calls[0].body).toEqual({ credential: 'id-token' })
    expect(onSignedIn).toHaveBeenCalledWith({ token: 'jwt', user, message: 'Google login successful!' })
  })

  it("no credential: 'Failed to get user information from Google'", async () => {
    mockApi({})
    const gis = fakeGis()
    render(<GoogleButton clientId="abc" onSignedIn={vi.fn()} />)
    await waitFor(() => expect(gis.cfg).not.toBeNull())
    await act(async () => gis.cfg!.callback({}))
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to get user information from Google')
  })

  it("server refusal shows its message ('Google authentication failed'), else 'Google login failed'", async () => {
    mockApi({ 'POST /auth/google-login': { status: 401, body: { message: 'Google authentication failed' } } })
    const gis = fakeGis()
    render(<GoogleButton clientId="abc" onSignedIn={vi.fn()} />)
    await waitFor(() => expect(gis.cfg).not.toBeNull())
    await act(async () => gis.cfg!.callback({ credential: 'bad' }))
    // The answer reaches the page through React Query's batched notifications: wait for it.
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Google authentication failed'))
    mockApi({ 'POST /auth/google-login': { status: 502 } })
    await act(async () => gis.cfg!.callback({ credential: 'x' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Google login failed'))
  })
})
