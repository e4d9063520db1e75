import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { PrizesPanel } from './prizes-panel'

const prizes = {
  tournament: 'PPL7',
  currency: 'EUR',
  exponent: 2,
  pool: 95000,
  split: [
    { place: 1, label: '1st', amount: 50000 },
    { place: 2, label: '2nd', amount: 25000 },
    { place: 3, label: '3rd', amount: 10000 },
  ],
  awards: [{ label: 'Red Cap', amount: 5000 }, { label: 'MVP', amount: 5000 }],
  team_share: 'even',
  entry_fee: 500,
  payments: true,
  funding: { sources: { organiser: 40000, sponsor: 30000, entry_fee: 1500, contribution: 0 }, total: 71500, unfunded: 23500 },
  ledger: { paid_out: 25000, fees: 0, balance: 46500 },
  payouts: [
    { label: '1st', team: 'Team A', amount: 25000, state: 'received' },
    { label: '1st', team: 'Team A', amount: 25000, state: 'paid' },
  ],
}

describe('the Prizes tab', () => {
  it('shows the pool, each prize, the funding against it and what is unfunded', async () => {
    mockApi({ 'GET /tournaments/PPL7/prizes': { body: prizes } })
    renderApp(<PrizesPanel tournament="PPL7" />, { route: '/tournament' })
    expect(await screen.findByTestId('prize-pool')).toHaveTextContent('€950.00')
    expect(screen.getByRole('row', { name: /1st place/ })).toHaveTextContent('€500.00')
    expect(screen.getByRole('row', { name: /Red Cap/ })).toHaveTextContent('€50.00')
    expect(screen.getByTestId('prize-unfunded')).toHaveTextContent('€235.00')
    // The winner's two shares: one received, one only paid, so the prize shows as paid.
    expect(screen.getByRole('row', { name: /1st place/ })).toHaveTextContent(/Paid · Team A/)
    expect(screen.getByRole('row', { name: /2nd place/ })).toHaveTextContent('After the final')
  })

  it('says so when the season has no prize pool', async () => {
    mockApi({ 'GET /tournaments/PPL7/prizes': { status: 404, body: { message: 'PPL7 has no prize pool.' } } })
    renderApp(<PrizesPanel tournament="PPL7" />, { route: '/tournament' })
    expect(await screen.findByText(/no prize pool/)).toBeInTheDocument()
  })
})

describe('the entry fee on the Prizes tab', () => {
  it('offers the checkout page to a registered player whose place is held unpaid', async () => {
    const api = mockApi({
      'GET /tournaments/PPL7/prizes': { body: prizes },
      'GET /tournament/status': { body: { registered: true, status: 'confirmed', payment: 'pending' } },
      'POST /tournaments/PPL7/payments/checkout': { body: { url: 'https://checkout.stripe.com/pay/c/cs_test' } },
    })
    const assign = vi.fn()
    Object.defineProperty(window, 'location', { value: { ...window.location, assign }, writable: true })
    renderApp(<PrizesPanel tournament="PPL7" />, { route: '/tournament', user: makeUser() })
    fireEvent.click(await screen.findByRole('button', { name: 'Pay €5.00' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/pay/c/cs_test'))
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/tournaments/PPL7/payments/checkout')).toBe(true)
  })
})
