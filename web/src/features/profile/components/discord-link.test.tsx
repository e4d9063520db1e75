import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { userQueryKey, type User } from '@/lib/auth'
import { discordOutcomeOf, keepDiscordOutcome, peekDiscordOutcome } from '../lib/discord-outcome'
import { DiscordLink } from './discord-link'
import { ProfileView } from './profile-view'

const linked = makeUser({ discord_username: 'racer.one', discord_id: '200000000000000001', discord_verified: true })
const typed = makeUser({ discord_username: 'typed_name', discord_verified: false })

function setup(user: User, configured: boolean, go = vi.fn()) {
  const utils = renderApp(<DiscordLink user={user} go={go} />, { user })
  utils.client.setQueryData(['config'], { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr', discord_link: configured })
  return { ...utils, go }
}

afterEach(() => window.sessionStorage.clear())

describe('profile: the Discord link', () => {
  it('shows a typed name as unverified, and Link Discord sends the browser to Discord', async () => {
    const api = mockApi({ 'GET /auth/discord/authorize': { body: { url: 'https://discord.com/oauth2/authorize?state=s' } } })
    const { go } = setup(typed, true)
    expect(screen.getByText('unverified')).toBeInTheDocument()
    fireEvent.click(await screen.findByRole('button', { name: 'Link Discord' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://discord.com/oauth2/authorize?state=s'))
    expect(api.callsTo('GET', '/auth/discord/authorize')).toHaveLength(1)
  })

  it("says why linking could not start (the server's message)", async () => {
    mockApi({ 'GET /auth/discord/authorize': { status: 503, body: { message: 'Linking Discord is not configured on this site.' } } })
    const { go } = setup(typed, true)
    fireEvent.click(await screen.findByRole('button', { name: 'Link Discord' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Linking Discord is not configured on this site.')
    expect(go).not.toHaveBeenCalled()
  })

  it('hides Link Discord when the site has no Discord application, and points to the bot', () => {
    mockApi({})
    setup(typed, false)
    expect(screen.queryByRole('button', { name: 'Link Discord' })).not.toBeInTheDocument()
    expect(screen.getByText(`!register ${typed.email}`)).toBeInTheDocument()
  })

  it('shows a proven link as verified and unlinks it', async () => {
    const after = makeUser({ discord_username: 'racer.one', discord_id: '', discord_verified: false })
    const api = mockApi({ 'DELETE /auth/discord': { body: { message: 'Discord account unlinked.', user: after } } })
    const { client } = setup(linked, true)
    expect(screen.getByText('✓ verified')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Link Discord' })).not.toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }))
    expect(await screen.findByText('Discord account unlinked.')).toBeInTheDocument()
    expect(api.callsTo('DELETE', '/auth/discord')).toHaveLength(1)
    expect(client.getQueryData<User>(userQueryKey)?.discord_verified).toBe(false)
  })

  it('shows the outcome the server sent the browser back with, once', () => {
    mockApi({})
    keepDiscordOutcome({ kind: 'error', text: 'This Discord account is already linked to another Pitlane account.' })
    setup(typed, true)
    expect(screen.getByRole('alert')).toHaveTextContent('already linked to another Pitlane account')
    expect(peekDiscordOutcome()).toBeNull()
  })

  it('the profile offers no typed name over a proven link', () => {
    mockApi({})
    renderApp(<ProfileView user={linked} onUploadStats={vi.fn()} onTournament={vi.fn()} onLogout={vi.fn()} />, { user: linked })
    expect(screen.queryByRole('button', { name: 'Change' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Unlink' })).toBeInTheDocument()
  })
})

describe('the outcome in the query string', () => {
  it('reads linked and error, and nothing else', () => {
    expect(discordOutcomeOf('?discord=linked&message=Discord+account+linked+and+verified%21')).toEqual({
      kind: 'success',
      text: 'Discord account linked and verified!',
    })
    expect(discordOutcomeOf('?discord=error&message=Nope')).toEqual({ kind: 'error', text: 'Nope' })
    expect(discordOutcomeOf('?discord=maybe')).toBeNull()
    expect(discordOutcomeOf('?showStatsUpload=true')).toBeNull()
  })
})
