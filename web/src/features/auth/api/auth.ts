import { api } from '@/lib/api-client'
import type { AuthResponse, User } from '@/lib/auth'

export type SignupInput = { email: string; password: string; confirmPassword: string; discordUsername: string }

/** A code was sent (or one sent lately still holds): `resend_after` is how many seconds until another may be asked for. */
export type CodeSent = { message: string; resend_after?: number }

export const signup = (input: SignupInput) => api.post<CodeSent>('/auth/signup', input)

/** The password typed at sign-up goes along, when the form still has it: the server then verifies only that sign-up. */
export const verifyOtp = (email: string, otp: string, password?: string | null) =>
  api.post<{ message: string }>('/auth/verify-otp', password ? { email, otp, password } : { email, otp })

export const resendOtp = (email: string) => api.post<CodeSent>('/auth/resend-otp', { email })

export const login = (email: string, password: string) => api.post<AuthResponse>('/auth/login', { email, password })

/** Google Identity Services ID token; the server verifies it (docs/api.md, "Accounts"). */
export const googleLogin = (credential: string) => api.post<AuthResponse>('/auth/google-login', { credential })

export const updateDiscordUsername = (discordUsername: string) =>
  api.post<{ message: string; user?: User }>('/auth/update-discord-username', { discordUsername })
