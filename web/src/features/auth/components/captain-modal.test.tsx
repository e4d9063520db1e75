import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { CaptainModal, NOT_A_CAPTAIN } from './captain-modal'

function fill(dialog: HTMLElement) {
  fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'cap@example.com' } })
  fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'pw' } })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in as Captain' }))
}

describe('CaptainModal', () => {
  it('puts modal-open on the body while open and removes it on close', async () => {
    mockApi({})
    const onClose = vi.fn()
    const { rerender } = renderApp(<CaptainModal open onClose={onClose} />)
    expect(document.body).toHaveClass('modal-open')
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalled()
    rerender(<></>)
    await waitFor(() => expect(document.body).not.toHaveClass('modal-open'))
  })

  it('refuses a player account and keeps no session', async () => {
    mockApi({ 'POST /auth/login': { body: { token: 'jwt', user: makeUser({ role: 'user' }) } } })
    renderApp(<CaptainModal open onClose={vi.fn()} />)
    fill(screen.getByRole('dialog'))
    expect(await screen.findByText(NOT_A_CAPTAIN)).toBeInTheDocument()
    expect(window.localStorage.getItem('token')).toBeNull()
  })

  it('accepts a captain (and an admin)', async () => {
    mockApi({ 'POST /auth/login': { body: { token: 'jwt', user: makeUser({ role: 'captain', name: 'Cap' }) } } })
    renderApp(<CaptainModal open onClose={vi.fn()} />)
    fill(screen.getByRole('dialog'))
    expect(await screen.findByText('Signed in as captain Cap.')).toBeInTheDocument()
    expect(window.localStorage.getItem('token')).toBe('jwt')
  })
})
