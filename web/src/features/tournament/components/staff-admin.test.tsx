import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { StaffAdmin } from './staff-admin'

// The server finds an account by a part of its name or Discord name, or by its whole e-mail address
// (never a part of one: addresses are not searchable letter by letter). The field promises that and
// no more.
describe('the co-organiser picker', () => {
  it('promises what the server matches: parts of names, an e-mail address whole', async () => {
    const api = mockApi({
      'GET /admin/tournaments/PPL7/staff': { body: { staff: [] } },
      'GET /admin/accounts': { body: { accounts: [{ id: 40, name: 'ace', discord_username: 'ace#1', discord_verified: true }] } },
    })
    renderApp(<StaffAdmin tournament="PPL7" />, { route: '/admin', user: makeUser({ role: 'admin' }) })
    const field = await screen.findByLabelText('Find a player')
    expect(field).toHaveAccessibleDescription(/e-mail address is matched whole, not by a part/i)
    expect(field.getAttribute('placeholder')).toMatch(/whole e-mail/)
    fireEvent.change(field, { target: { value: 'ace@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(api.calls.some((c) => c.path === '/admin/accounts' && c.query.get('q') === 'ace@example.com')).toBe(true))
    expect(await screen.findByText('ace')).toBeInTheDocument()
  })
})
