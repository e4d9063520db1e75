import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { userQueryKey, type User } from '@/lib/auth'
import { ProfileView } from './profile-view'
import { validatePasswordChange } from './password-form'

function setup(user: User = makeUser()) {
  const handlers = { onUploadStats: vi.fn(), onTournament: vi.fn(), onLogout: vi.fn() }
  const utils = renderApp(<ProfileView user={user} {...handlers} registration={<p>registration slot</p>} />, { user })
  return { ...utils, ...handlers }
}

describe('profile: Discord username', () => {
  it('changes it, shows the server message and updates the session user', async () => {
    const updated = makeUser({ discord_username: 'new_name' })
    const api = mockApi({
      'POST /auth/update-discord-username': { body: { message: 'Discord username updated successfully!', user: updated } },
    })
    const { client } = setup()
    fireEvent.click(screen.getByRole('button', { name: 'Change' }))
    const form = screen.getByRole('form', { name: 'Change Discord username' })
    const input = within(form).getByLabelText('Discord username')
    expect(input).toHaveValue('rider#1')
    fireEvent.change(input, { target: { value: '  new_name ' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save Discord username' }))
    expect(await screen.findByText('Discord username updated successfully!')).toBeInTheDocument()
    expect(api.callsTo('POST', '/auth/update-discord-username')[0].body).toEqual({ discordUsername: 'new_name' })
    expect(client.getQueryData<User>(userQueryKey)?.discord_username).toBe('new_name')
    expect(screen.queryByRole('form', { name: 'Change Discord username' })).not.toBeInTheDocument()
  })

  it('says a blank name is not a name, without asking the server', async () => {
    const api = mockApi({})
    setup()
    fireEvent.click(screen.getByRole('button', { name: 'Change' }))
    fireEvent.change(screen.getByLabelText('Discord username'), { target: { value: '   ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save Discord username' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your Discord username')
    expect(api.calls).toHaveLength(0)
  })

  it("shows the server's reason, or 'Failed to update Discord username'", async () => {
    mockApi({ 'POST /auth/update-discord-username': { status: 400, body: { message: 'Discord username must be 2 to 32 characters' } } })
    setup()
    fireEvent.click(screen.getByRole('button', { name: 'Change' }))
    fireEvent.change(screen.getByLabelText('Discord username'), { target: { value: 'x' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save Discord username' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Discord username must be 2 to 32 characters')

    mockApi({ 'POST /auth/update-discord-username': { status: 500 } })
    fireEvent.click(screen.getByRole('button', { name: 'Save Discord username' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to update Discord username'))
  })
})

describe('profile: password', () => {
  const fill = (current: string, next: string, confirm: string) => {
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: current } })
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: next } })
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } })
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }))
  }

  it('checks the fields before asking the server', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: 'x', confirmPassword: 'x' })).toBe('Please fill in all fields')
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'short', confirmPassword: 'short' })).toBe(
      'Password must be at least 8 characters',
    )
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'long-enough', confirmPassword: 'long-enougH' })).toBe(
      'Passwords do not match',
    )
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'long-enough', confirmPassword: 'long-enough' })).toBe('')
  })

  it("a mismatch says 'Passwords do not match' and sends nothing", async () => {
    const api = mockApi({})
    setup()
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    fill('old-password', 'new-password-1', 'new-password-2')
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match')
    expect(api.calls).toHaveLength(0)
  })

  it('a wrong current password shows the server message and keeps the player signed in', async () => {
    mockApi({
      'POST /auth/change-password': { status: 400, body: { message: 'Current password is incorrect' } },
      'GET /auth/profile': { body: { user: makeUser() } },
    })
    const { client } = setup()
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    fill('wrong-password', 'new-password-1', 'new-password-1')
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect')
    expect(window.localStorage.getItem('token')).toBe('test-token')
    await waitFor(() => expect(client.getQueryData(userQueryKey)).not.toBeNull())
    expect(screen.getByLabelText('Current password')).toHaveValue('wrong-password')
  })

  it('a change stores the new token, says so and closes the form', async () => {
    const api = mockApi({
      'POST /auth/change-password': {
        body: { message: 'Password changed. Other sessions have been signed out.', token: 'new-jwt', user: makeUser() },
      },
    })
    setup()
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    fill('old-password', 'new-password-1', 'new-password-1')
    expect(await screen.findByText('Password changed. Other sessions have been signed out.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/auth/change-password')[0].body).toEqual({
      currentPassword: 'old-password',
      newPassword: 'new-password-1',
      confirmPassword: 'new-password-1',
    })
    expect(window.localStorage.getItem('token')).toBe('new-jwt')
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument()
  })
})

it('shows the registration block the app plugs in', () => {
  mockApi({})
  setup()
  expect(screen.getByRole('heading', { name: 'Tournament' })).toBeInTheDocument()
  expect(screen.getByText('registration slot')).toBeInTheDocument()
})

describe('profile: changes that need the second factor', () => {
  const security = {
    session_id: 3,
    organiser_locked: true,
    second_factor_available: true,
    second_factor_required: true,
    session_verified: false,
    totp: true,
    passkeys: 0,
    recovery_codes_left: 10,
    passkeys_on: false,
  }
  const organiser = makeUser({ role: 'user', email: 'boss@example.com', security })
  /** A stand-in for the app's prompt: says what it was asked for, and confirms the session. */
  function confirmPrompt(onConfirm: () => void) {
    return (intro?: string) => (
      <div>
        <p>{intro ?? 'organiser powers'}</p>
        <button type="button" onClick={onConfirm}>
          Confirm with the app
        </button>
      </div>
    )
  }

  it('asks a session that has not used the factor to confirm first, then shows the forms', async () => {
    const api = mockApi({})
    const handlers = { onUploadStats: vi.fn(), onTournament: vi.fn(), onLogout: vi.fn() }
    const confirmed = { ...organiser, security: { ...security, session_verified: true, organiser_locked: false } }
    function Harness() {
      const [user, setUser] = useState(organiser)
      return <ProfileView user={user} {...handlers} confirmSecondFactor={confirmPrompt(() => setUser(confirmed))} />
    }
    renderApp(<Harness />, { user: organiser })
    for (const [button, what] of [
      ['Change password', 'change your password'],
      ['Change e-mail', 'move your account to another address'],
      ['Delete my account', 'delete your account'],
    ]) {
      fireEvent.click(screen.getByRole('button', { name: button }))
      const region = screen.getByRole('region', { name: 'Confirm it is you' })
      expect(region).toHaveTextContent(`confirm this session with your authenticator app, a recovery code or a passkey to ${what}`)
      expect(within(region).getByRole('button', { name: 'Confirm with the app' })).toBeInTheDocument()
      fireEvent.click(within(region).getByRole('button', { name: 'Cancel' }))
    }
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument()
    expect(api.calls).toHaveLength(0)

    // Once the session used the factor, the form it was opened for shows.
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    fireEvent.click(within(screen.getByRole('region', { name: 'Confirm it is you' })).getByRole('button', { name: 'Confirm with the app' }))
    await waitFor(() => expect(screen.getByLabelText('Current password')).toBeInTheDocument())
    expect(screen.queryByRole('region', { name: 'Confirm it is you' })).not.toBeInTheDocument()
  })

  it('leaves an account without a second factor as it was', () => {
    mockApi({})
    const handlers = { onUploadStats: vi.fn(), onTournament: vi.fn(), onLogout: vi.fn() }
    const player = makeUser({ security: { ...security, totp: false, organiser_locked: false, second_factor_available: false } })
    renderApp(<ProfileView user={player} {...handlers} confirmSecondFactor={confirmPrompt(() => undefined)} />, { user: player })
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(screen.getByLabelText('Current password')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Confirm it is you' })).not.toBeInTheDocument()
  })
})
