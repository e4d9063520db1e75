import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { AdminNav } from './admin-nav'
import AdminMetricsRoute from './routes/admin-metrics'

const organiser = makeUser({ role: 'admin' })
const coOrganiser = makeUser({ role: 'staff', staff_of: ['PPL7'] })

describe('the organisers menu', () => {
  it('offers the site organiser every page, Metrics included', () => {
    renderApp(<AdminNav />, { route: '/admin', user: organiser })
    const nav = screen.getByRole('navigation', { name: 'Organisers' })
    expect(within(nav).getByRole('link', { name: 'Metrics' })).toHaveAttribute('href', '/admin/metrics')
    expect(within(nav).getByRole('link', { name: 'Matches' })).toBeInTheDocument()
  })

  it("offers a co-organiser only what the server takes from them: no Metrics, which is the site's organisers' alone", () => {
    renderApp(<AdminNav />, { route: '/admin', user: coOrganiser })
    const nav = screen.getByRole('navigation', { name: 'Organisers' })
    expect(within(nav).queryByRole('link', { name: 'Metrics' })).toBeNull()
    expect(within(nav).getByRole('link', { name: 'Matches' })).toBeInTheDocument()
  })

  it('shows a co-organiser who opens /admin/metrics that it is not theirs, without asking the server', async () => {
    const api = mockApi({})
    renderApp(<AdminMetricsRoute />, { route: '/admin/metrics', user: coOrganiser })
    expect(await screen.findByText(/site's organisers only/i)).toBeInTheDocument()
    expect(api.calls.some((c) => c.path.startsWith('/admin/metrics'))).toBe(false)
  })
})
