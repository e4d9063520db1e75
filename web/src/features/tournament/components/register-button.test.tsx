import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { LiveEvent } from '@/lib/live-client'
import { applyStatusEvent } from '../api/registrations'
import { RegisterButton } from './register-button'

const info = { name: 'PPL7', status: 'registration' as const, registration_open: true, count: 3 }
const ev = (data: unknown): LiveEvent => ({ type: 'event', topic: 'registrations', seq: 5, event: 'tournament.status', data })

describe('the phase, live', () => {
  it('tournament.status moves the tournament’s phase and closes registration', () => {
    expect(applyStatusEvent(info, ev({ tournament: 'PPL7', status: 'auction', registration_open: false }))).toEqual({
      ...info,
      status: 'auction',
      registration_open: false,
    })
    expect(applyStatusEvent(info, ev({ tournament: 'PPL8', status: 'auction' }))).toBe(info)
    expect(applyStatusEvent(undefined, ev({ tournament: 'PPL7', status: 'auction' }))).toBeUndefined()
  })

  it('REGISTER while registration is open, "Registration closed" (disabled) after', async () => {
    mockApi({ 'GET /tournament/info': { body: info } })
    const { unmount } = renderApp(<RegisterButton tournament="PPL7" />)
    expect(await screen.findByRole('button', { name: 'REGISTER' })).toBeEnabled()
    unmount()
    mockApi({ 'GET /tournament/info': { body: { ...info, status: 'auction', registration_open: false } } })
    renderApp(<RegisterButton tournament="PPL7" />)
    expect(await screen.findByRole('button', { name: 'Registration closed' })).toBeDisabled()
  })
})
