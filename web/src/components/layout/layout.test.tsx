import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { OPEN_AUTH_MODAL } from '@/lib/window-events'
import { BackToTop } from './back-to-top'
import { Header } from './header'
import { NewsletterForm } from './newsletter-form'

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true })
  act(() => {
    window.dispatchEvent(new Event('scroll'))
  })
}

describe('Header', () => {
  it('signed out: links and Login / Sign Up', () => {
    mockApi({})
    renderApp(<Header />)
    for (const name of ['Home', 'Tournament', 'News', 'Contact']) expect(screen.getByRole('link', { name })).toBeInTheDocument()
    const seen = vi.fn()
    window.addEventListener(OPEN_AUTH_MODAL, seen)
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    fireEvent.click(screen.getByRole('button', { name: 'Login' }))
    expect(seen.mock.calls.map((c) => (c[0] as CustomEvent).detail.mode)).toEqual(['signup', 'login'])
    window.removeEventListener(OPEN_AUTH_MODAL, seen)
  })

  it('signed in: the e-mail and Logout, which drops the token', async () => {
    mockApi({})
    renderApp(<Header />, { user: makeUser({ email: 'me@example.com' }) })
    expect(screen.getByText('me@example.com')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }))
    expect(window.localStorage.getItem('token')).toBeNull()
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument()
  })

  it('marks the current page active', () => {
    mockApi({})
    renderApp(<Header />, { route: '/tournament' })
    expect(screen.getByRole('link', { name: 'Tournament' })).toHaveAttribute('aria-current', 'page')
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
  })

  it('the mobile menu toggles', () => {
    mockApi({})
    renderApp(<Header />)
    const toggle = screen.getByRole('button', { name: 'Open menu' })
    fireEvent.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(document.getElementById('site-nav')).toHaveClass('open')
  })

  it('the mobile menu closes when a link is followed, and on Escape or a click outside', () => {
    mockApi({})
    renderApp(
      <>
        <Header />
        <p>page text</p>
      </>,
    )
    const nav = document.getElementById('site-nav')!
    const open = () => fireEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    open()
    fireEvent.click(screen.getByRole('link', { name: 'Tournament' }))
    expect(screen.getByTestId('location')).toHaveTextContent('/tournament')
    expect(nav).not.toHaveClass('open')
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false')

    open()
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(nav).not.toHaveClass('open')

    open()
    fireEvent.pointerDown(screen.getByText('page text'))
    expect(nav).not.toHaveClass('open')
  })

  it('the mobile menu closes when Login opens the auth modal, and stays closed after signing in', async () => {
    mockApi({})
    const { client } = renderApp(<Header />)
    const seen = vi.fn()
    window.addEventListener(OPEN_AUTH_MODAL, seen)
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    fireEvent.click(screen.getByRole('button', { name: 'Login' }))
    expect(seen).toHaveBeenCalledTimes(1)
    expect(document.getElementById('site-nav')).not.toHaveClass('open')
    window.removeEventListener(OPEN_AUTH_MODAL, seen)

    // Signing in elsewhere (the modal, another tab) closes a menu that was open.
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    act(() => client.setQueryData(['auth', 'user'], makeUser({ email: 'me@example.com' })))
    expect(await screen.findByText('me@example.com')).toBeInTheDocument()
    expect(document.getElementById('site-nav')).not.toHaveClass('open')
  })

  it('gets its active style after 100px of scroll, and back-to-top appears', async () => {
    mockApi({})
    renderApp(
      <>
        <Header />
        <BackToTop />
      </>,
    )
    const header = screen.getByRole('banner')
    expect(header).not.toHaveClass('scrolled')
    expect(screen.queryByRole('link', { name: 'Back to top' })).not.toBeInTheDocument()
    scrollTo(100)
    await new Promise((r) => requestAnimationFrame(() => r(null)))
    expect(header).not.toHaveClass('scrolled')
    scrollTo(101)
    await waitFor(() => expect(header).toHaveClass('scrolled'))
    fireEvent.click(screen.getByRole('link', { name: 'Back to top' }))
    expect(window.scrollTo).toHaveBeenCalled()
    scrollTo(0)
  })

  it('a 401 on the profile removes the stored token', async () => {
    mockApi({ 'GET /auth/profile': { status: 401, body: { message: 'unauthorized' } } })
    window.localStorage.setItem('token', 'stale')
    const { getProfile } = await import('@/lib/auth')
    await expect(getProfile()).resolves.toBeNull()
    expect(window.localStorage.getItem('token')).toBeNull()
  })
})

describe('NewsletterForm', () => {
  it('subscribes through POST /api/newsletter and confirms', async () => {
    const api = mockApi({ 'POST /newsletter': { status: 201, body: { message: 'Subscribed! Watch your inbox for league news.' } } })
    renderApp(<NewsletterForm />)
    fireEvent.change(screen.getByLabelText('Get league news by e-mail'), { target: { value: 'fan@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
    expect(await screen.findByText('Subscribed! Watch your inbox for league news.')).toBeInTheDocument()
    expect(api.calls[0].body).toEqual({ email: 'fan@example.com' })
  })

  it('checks the address first, and shows server errors', async () => {
    mockApi({ 'POST /newsletter': { status: 400, body: { message: 'Invalid email' } } })
    renderApp(<NewsletterForm />)
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
    expect(await screen.findByText('Please enter a valid e-mail address.')).toBeInTheDocument()
    fireEvent.change(screen.getByLabelText('Get league news by e-mail'), { target: { value: 'x@y.zz' } })
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
    expect(await screen.findByText('Invalid email')).toBeInTheDocument()
  })
})
