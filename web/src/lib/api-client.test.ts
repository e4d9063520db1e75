// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { api, ApiError, errorMessage, setUnauthorizedHandler, tokenStore } from './api-client'

describe('api client', () => {
  it('sends the bearer token and JSON', async () => {
    const m = mockApi({ 'POST /x': { body: { ok: true } } })
    tokenStore.set('abc')
    await expect(api.post('/x', { a: 1 })).resolves.toEqual({ ok: true })
    expect(m.calls[0].headers).toMatchObject({ Authorization: 'Bearer abc', 'Content-Type': 'application/json' })
  })

  it("turns errors into the server's message, or 'Request failed'", async () => {
    mockApi({ 'GET /a': { status: 400, body: { message: 'Bad thing' } }, 'GET /b': { status: 500 } })
    const a = await api.get('/a').catch((e) => e)
    expect(a).toBeInstanceOf(ApiError)
    expect(errorMessage(a)).toBe('Bad thing')
    const b = await api.get('/b').catch((e) => e)
    expect(errorMessage(b)).toBe('Request failed')
    expect(errorMessage(b, 'Failed to save stats')).toBe('Failed to save stats')
    expect(errorMessage(new Error('x'))).toBe('Request failed')
  })

  it('a 401 with a token clears the session, but not a failed login', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    mockApi({ 'GET /stats/get': { status: 401 }, 'POST /auth/login': { status: 401, body: { message: 'Invalid email or password' } } })
    tokenStore.set('abc')
    await api.post('/auth/login', {}).catch(() => null)
    expect(handler).not.toHaveBeenCalled()
    await api.get('/stats/get').catch(() => null)
    expect(handler).toHaveBeenCalledTimes(1)
  })

  it('reads Retry-After of a 429', async () => {
    mockApi({ 'POST /auth/resend-otp': { status: 429, body: { message: 'Too soon' }, headers: { 'Retry-After': '30' } } })
    const e = (await api.post('/auth/resend-otp', {}).catch((x) => x)) as ApiError
    expect(e.status).toBe(429)
    expect(e.retryAfter).toBe(30)
  })
})
