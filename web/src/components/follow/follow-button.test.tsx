import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { makeUser } from '@/testing/fixtures'
import { renderApp } from '@/testing/render'
import { FollowButton, FollowCounts } from './follow-button'

describe('FollowButton', () => {
  it('follows in one click, then shows Following and friends when the player follows back', async () => {
    let follows: unknown[] = []
    const api = mockApi({
      'GET /me/follows': () => ({ body: { items: follows } }),
      'PUT /follows/player/8': () => {
        follows = [{ kind: 'player', id: '8', name: 'Ben', friend: true, at: '2026-12-08T00:00:00Z' }]
        return { status: 204 }
      },
    })
    renderApp(<FollowButton kind="player" id="8" name="Ben" />, { user: makeUser({ id: 7 }) })
    const follow = await screen.findByRole('button', { name: 'Follow Ben' })
    await waitFor(() => expect(follow).toBeEnabled())
    fireEvent.click(follow)
    expect(await screen.findByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByText(/friends/)).toBeInTheDocument()
    expect(api.callsTo('PUT', '/follows/player/8')).toHaveLength(1)
  })

  it('is not offered signed out, nor on one\'s own profile', async () => {
    mockApi({ 'GET /me/follows': { body: { items: [] } } })
    const { unmount } = renderApp(<FollowButton kind="player" id="8" name="Ben" />)
    expect(screen.queryByRole('button')).toBeNull()
    unmount()
    renderApp(<FollowButton kind="player" id="7" name="Me" />, { user: makeUser({ id: 7 }) })
    expect(screen.queryByRole('button')).toBeNull()
  })
})

describe('FollowCounts', () => {
  it('shows the counts the player lets the viewer see, and nothing when refused', async () => {
    mockApi({
      'GET /players/8/followers': { body: { user_id: 8, followers: 12, following: 1, items: [], next_cursor: null } },
      'GET /players/9/followers': { status: 403, body: { message: 'private' } },
    })
    renderApp(
      <>
        <FollowCounts userId={8} />
        <FollowCounts userId={9} />
      </>,
    )
    expect(await screen.findByTestId('follow-counts')).toHaveTextContent('12 followers · follows 1')
    await waitFor(() => expect(screen.getAllByTestId('follow-counts')).toHaveLength(1))
  })
})
