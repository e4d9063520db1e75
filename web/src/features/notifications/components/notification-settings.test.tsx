import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { NotificationSettings as Settings } from '../api/notifications'
import { NotificationSettings } from './notification-settings'

function settings(over: Partial<Settings> = {}): Settings {
  return {
    kinds: [
      { kind: 'report_waiting', label: 'A report waits for my confirmation', push: false, discord: false },
      { kind: 'outbid', label: 'I was outbid (captains)', push: false, discord: true },
    ],
    push: { available: false, public_key: '', devices: 0 },
    discord: { available: true, linked: true },
    ...over,
  }
}

describe('profile: notifications', () => {
  it('says push is unavailable (not why) on a server without VAPID keys, and keeps its boxes off', async () => {
    mockApi({ 'GET /me/notifications': { body: settings() } })
    renderApp(<NotificationSettings />, { user: makeUser() })
    expect(await screen.findByText(/Push notifications are unavailable here/)).toBeInTheDocument()
    expect(screen.queryByText(/VAPID/)).toBeNull()
    expect(screen.getByRole('checkbox', { name: 'A report waits for my confirmation: push' })).toBeDisabled()
    expect(screen.getByRole('checkbox', { name: 'I was outbid (captains): Discord DM' })).toBeChecked()
  })

  it('saves a kind on a channel as the player ticks it', async () => {
    const on = settings({ push: { available: true, public_key: 'BKey', devices: 1 } })
    const api = mockApi({
      'GET /me/notifications': { body: on },
      'PUT /me/notifications': (req) => {
        const [choice] = (req.body as { kinds: Settings['kinds'] }).kinds
        return { body: { ...on, kinds: on.kinds.map((k) => (k.kind === choice.kind ? { ...k, ...choice } : k)) } }
      },
    })
    renderApp(<NotificationSettings />, { user: makeUser() })
    const box = await screen.findByRole('checkbox', { name: 'A report waits for my confirmation: push' })
    fireEvent.click(box)
    await waitFor(() => expect(api.callsTo('PUT', '/me/notifications')).toHaveLength(1))
    expect(api.callsTo('PUT', '/me/notifications')[0].body).toEqual({
      kinds: [{ kind: 'report_waiting', label: 'A report waits for my confirmation', push: true, discord: false }],
    })
    await waitFor(() => expect(box).toBeChecked())
  })

  it('asks for a linked Discord account before DMs', async () => {
    mockApi({ 'GET /me/notifications': { body: settings({ discord: { available: true, linked: false } }) } })
    renderApp(<NotificationSettings />, { user: makeUser() })
    expect(await screen.findByText(/Link your Discord account above/)).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'I was outbid (captains): Discord DM' })).toBeDisabled()
  })
})
