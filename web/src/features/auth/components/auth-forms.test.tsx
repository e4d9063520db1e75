import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { makeUser } from '@/testing/fixtures'
import { DiscordStep } from './discord-step'
import { LOGIN_AFTER_VERIFY_FAILED, OtpForm, sanitizeOtp } from './otp-form'
import { SignInForm } from './sign-in-form'
import { SignUpForm } from './sign-up-form'

const type = (label: RegExp | string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('SignUpForm', () => {
  it('requires every field', async () => {
    const api = mockApi({})
    render(<SignUpForm onSignedUp={vi.fn()} />)
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(api.calls).toHaveLength(0)
  })

  it("says 'Passwords do not match'", async () => {
    mockApi({})
    render(<SignUpForm onSignedUp={vi.fn()} />)
    type('Discord username', 'zoom')
    type('Email', 'z@example.com')
    type('Password', 'secret123')
    type('Confirm password', 'secret124')
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match')
  })

  it("posts the seed payload and passes on the server's message and resend_after", async () => {
    const api = mockApi({
      'POST /auth/signup': { status: 201, body: { message: 'Account created! Please check your email for OTP verification.', resend_after: 60 } },
    })
    const onSignedUp = vi.fn()
    render(<SignUpForm onSignedUp={onSignedUp} />)
    type('Discord username', 'zoom')
    type('Email', 'z@example.com')
    type('Password', 'secret123')
    type('Confirm password', 'secret123')
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    await waitFor(() =>
      expect(onSignedUp).toHaveBeenCalledWith('z@example.com', 'secret123', 'Account created! Please check your email for OTP verification.', 60),
    )
    expect(api.calls[0].body).toEqual({ email: 'z@example.com', password: 'secret123', confirmPassword: 'secret123', discordUsername: 'zoom' })
  })

  it("shows the server's message on failure, or 'Request failed'", async () => {
    mockApi({ 'POST /auth/signup': { status: 400, body: { message: 'Password must be at least 8 characters' } } })
    render(<SignUpForm onSignedUp={vi.fn()} />)
    type('Discord username', 'zoom')
    type('Email', 'z@example.com')
    type('Password', 'a')
    type('Confirm password', 'a')
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 8 characters')
  })

  it("falls back to 'Request failed' without a message", async () => {
    mockApi({ 'POST /auth/signup': { status: 500 } })
    render(<SignUpForm onSignedUp={vi.fn()} />)
    type('Discord username', 'zoom')
    type('Email', 'z@example.com')
    type('Password', 'a')
    type('Confirm password', 'a')
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Request failed')
  })
})

describe('SignInForm', () => {
  it('signs in and hands over token and user', async () => {
    const user = makeUser()
    mockApi({ 'POST /auth/login': { body: { token: 't1', user } } })
    const onSignedIn = vi.fn()
    render(<SignInForm onSignedIn={onSignedIn} onNeedsVerification={vi.fn()} />)
    type('Email', 'rider@example.com')
    type('Password', 'pw')
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith({ token: 't1', user }, 'pw'))
  })

  it('offers verification for an unverified account (403)', async () => {
    mockApi({
      'POST /auth/login': { status: 403, body: { message: 'Please verify your email first' } },
      'POST /auth/resend-otp': { body: { message: 'OTP sent successfully!' } },
    })
    const onNeeds = vi.fn()
    render(<SignInForm onSignedIn={vi.fn()} onNeedsVerification={onNeeds} />)
    type('Email', 'a@example.com')
    type('Password', 'pw')
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email first')
    fireEvent.click(screen.getByRole('button', { name: 'Verify my e-mail' }))
    await waitFor(() => expect(onNeeds).toHaveBeenCalledWith('a@example.com', 'pw', 60))
  })

  it('an unverified account whose code was sent moments ago goes on with the wait Retry-After gives', async () => {
    mockApi({
      'POST /auth/login': { status: 403, body: { message: 'Please verify your email first' } },
      'POST /auth/resend-otp': { status: 429, body: { message: 'Please wait 37 seconds before requesting another OTP.' }, headers: { 'Retry-After': '37' } },
    })
    const onNeeds = vi.fn()
    render(<SignInForm onSignedIn={vi.fn()} onNeedsVerification={onNeeds} />)
    type('Email', 'a@example.com')
    type('Password', 'pw')
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Verify my e-mail' }))
    await waitFor(() => expect(onNeeds).toHaveBeenCalledWith('a@example.com', 'pw', 37))
  })
})

describe('OtpForm', () => {
  it('keeps digits only, six at most', () => {
    expect(sanitizeOtp('12a3-45 678')).toBe('123456')
    mockApi({})
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} />)
    const input = screen.getByLabelText(/Verification code/)
    fireEvent.change(input, { target: { value: '9x8y7z6543' } })
    expect(input).toHaveValue('987654')
    expect(input).toHaveAttribute('maxLength', '6')
    expect(input).toHaveAttribute('inputMode', 'numeric')
  })

  it('after a sign-up, offers the way to sign in or reset for an address that has an account', () => {
    const api = mockApi({})
    const onSignIn = vi.fn()
    const onForgot = vi.fn()
    const { unmount } = render(
      <OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} onSignIn={onSignIn} onForgot={onForgot} />,
    )
    expect(screen.getByText(/Already have an account with this address\?/)).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    fireEvent.click(screen.getByRole('button', { name: 'Reset my password' }))
    expect(onSignIn).toHaveBeenCalledTimes(1)
    expect(onForgot).toHaveBeenCalledTimes(1)
    expect(api.calls).toHaveLength(0)
    unmount()
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} />)
    expect(screen.queryByText(/Already have an account/)).not.toBeInTheDocument()
  })

  it("needs exactly six digits: 'Please enter a valid 6-digit OTP'", async () => {
    const api = mockApi({})
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} />)
    fireEvent.change(screen.getByLabelText(/Verification code/), { target: { value: '123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Verify OTP' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid 6-digit OTP')
    expect(api.calls).toHaveLength(0)
  })

  it('shows the verified message, then signs in automatically after 2 s', async () => {
    vi.useFakeTimers()
    const user = makeUser()
    const api = mockApi({
      'POST /auth/verify-otp': { body: { message: 'Email verified successfully! You can now login.' } },
      'POST /auth/login': { body: { token: 't', user } },
    })
    const onLoggedIn = vi.fn()
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={onLoggedIn} onLoginFailed={vi.fn()} />)
    fireEvent.change(screen.getByLabelText(/Verification code/), { target: { value: '123456' } })
    fireEvent.click(screen.getByRole('button', { name: 'Verify OTP' }))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    expect(screen.getByText('Email verified successfully! You can now login.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/auth/verify-otp')[0].body).toEqual({ email: 'a@example.com', otp: '123456', password: 'pw' })
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1999)
    })
    expect(api.callsTo('POST', '/auth/login')).toHaveLength(0)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1)
    })
    expect(api.callsTo('POST', '/auth/login')[0].body).toEqual({ email: 'a@example.com', password: 'pw' })
    expect(onLoggedIn).toHaveBeenCalledWith({ token: 't', user })
  })

  it("reports 'Email verified but login failed. Please login manually.' when the auto login fails", async () => {
    vi.useFakeTimers()
    mockApi({
      'POST /auth/verify-otp': { body: { message: 'Email verified successfully! You can now login.' } },
      'POST /auth/login': { status: 500, body: { message: 'boom' } },
    })
    const onLoginFailed = vi.fn()
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={onLoginFailed} />)
    fireEvent.change(screen.getByLabelText(/Verification code/), { target: { value: '123456' } })
    fireEvent.click(screen.getByRole('button', { name: 'Verify OTP' }))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000)
    })
    expect(onLoginFailed).toHaveBeenCalledWith(LOGIN_AFTER_VERIFY_FAILED)
    expect(LOGIN_AFTER_VERIFY_FAILED).toBe('Email verified but login failed. Please login manually.')
  })

  const tick = (ms: number) =>
    act(async () => {
      await vi.advanceTimersByTimeAsync(ms)
    })
  const resendButton = () => screen.getByRole('button', { name: /^(Resend OTP|Sending…)/ })

  it('right after sign-up the resend button waits 60 s, counting down live', async () => {
    vi.useFakeTimers()
    const api = mockApi({ 'POST /auth/resend-otp': { body: { message: 'OTP sent successfully!' } } })
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} />)
    expect(resendButton()).toBeDisabled()
    expect(resendButton()).toHaveTextContent('Resend OTP in 60 s')
    await tick(1000)
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('59')
    await tick(58_000)
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('1')
    expect(resendButton()).toBeDisabled()
    await tick(1000)
    expect(resendButton()).toBeEnabled()
    expect(resendButton()).toHaveTextContent(/^Resend OTP$/)
    fireEvent.click(resendButton())
    await tick(0)
    expect(api.callsTo('POST', '/auth/resend-otp')[0].body).toEqual({ email: 'a@example.com' })
  })

  it("a resend shows 'OTP sent successfully!' for 5 s and starts a new 60 s countdown", async () => {
    vi.useFakeTimers()
    mockApi({ 'POST /auth/resend-otp': { body: { message: 'OTP sent successfully!' } } })
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} resendCooldown={0} />)
    fireEvent.click(resendButton())
    await tick(0)
    expect(screen.getByText('OTP sent successfully!')).toBeInTheDocument()
    expect(resendButton()).toBeDisabled()
    expect(resendButton()).toHaveTextContent('Resend OTP in 60 s')
    await tick(4999)
    expect(screen.getByText('OTP sent successfully!')).toBeInTheDocument()
    await tick(1)
    expect(screen.queryByText('OTP sent successfully!')).not.toBeInTheDocument()
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('55')
    await tick(55_000)
    expect(resendButton()).toBeEnabled()
  })

  it("a resend counts down the server's resend_after: the wait between codes rises", async () => {
    vi.useFakeTimers()
    mockApi({ 'POST /auth/resend-otp': { body: { message: 'OTP sent successfully!', resend_after: 240 } } })
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} resendCooldown={0} />)
    fireEvent.click(resendButton())
    await tick(0)
    expect(resendButton()).toHaveTextContent('Resend OTP in 240 s')
    await tick(60_000)
    expect(resendButton()).toBeDisabled()
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('180')
  })

  it('a too-early resend (429) counts down from Retry-After instead of a stale "wait N seconds"', async () => {
    vi.useFakeTimers()
    mockApi({
      'POST /auth/resend-otp': {
        status: 429,
        body: { message: 'Please wait 42 seconds before requesting another OTP.' },
        headers: { 'Retry-After': '42' },
      },
    })
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} resendCooldown={0} />)
    fireEvent.click(resendButton())
    await tick(0)
    expect(resendButton()).toBeDisabled()
    expect(resendButton()).toHaveTextContent('Resend OTP in 42 s')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await tick(10_000)
    expect(screen.getByTestId('resend-countdown')).toHaveTextContent('32')
    await tick(32_000)
    expect(resendButton()).toBeEnabled()
  })

  it("a 429 without Retry-After shows the server's message", async () => {
    mockApi({ 'POST /auth/resend-otp': { status: 429, body: { message: 'Too many requests. Please slow down.' } } })
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} resendCooldown={0} />)
    fireEvent.click(resendButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please slow down.')
    expect(resendButton()).toBeEnabled()
  })

  it("a wrong code shows the server's message as it is", async () => {
    mockApi({ 'POST /auth/verify-otp': { status: 400, body: { message: 'Invalid OTP. Please check the code and try again. 4 tries left.' } } })
    render(<OtpForm email="a@example.com" password="pw" onLoggedIn={vi.fn()} onLoginFailed={vi.fn()} />)
    fireEvent.change(screen.getByLabelText(/Verification code/), { target: { value: '000000' } })
    fireEvent.click(screen.getByRole('button', { name: 'Verify OTP' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid OTP. Please check the code and try again. 4 tries left.$/)
    expect(screen.getByRole('button', { name: 'Verify OTP' })).toBeEnabled()
  })
})

describe('DiscordStep', () => {
  it("blank gives 'Please enter your Discord username'", async () => {
    mockApi({})
    render(<DiscordStep initial="" onDone={vi.fn()} />)
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your Discord username')
  })

  it("a failure without message gives 'Failed to update Discord username'", async () => {
    mockApi({ 'POST /auth/update-discord-username': { status: 500 } })
    render(<DiscordStep initial="zoom" onDone={vi.fn()} />)
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update Discord username')
  })

  it('a message means success', async () => {
    const api = mockApi({ 'POST /auth/update-discord-username': { body: { message: 'Discord username updated' } } })
    const onDone = vi.fn()
    render(<DiscordStep initial="" onDone={onDone} />)
    type('Discord username', ' zoom ')
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(onDone).toHaveBeenCalled())
    expect(api.calls[0].body).toEqual({ discordUsername: 'zoom' })
  })
})
