// The signed-in player's own account settings.
import { api } from '@/lib/api-client'
import type { AuthResponse, User } from '@/lib/auth'

/** Where to send the browser to link Discord (OAuth2); the server also sets the flow's state cookie. */
export const discordAuthorizeUrl = () => api.get<{ url: string }>('/auth/discord/authorize')

/** Drops the proven link; the name stays, unverified. */
export const unlinkDiscord = () => api.delete<{ message: string; user?: User }>('/auth/discord')

export const updateDiscordName = (discordUsername: string) =>
  api.post<{ message: string; user?: User }>('/auth/update-discord-username', { discordUsername })

export type PasswordChange = { currentPassword: string; newPassword: string; confirmPassword: string }

/** Answers with a new token and the user: every older session (other devices) is signed out. */
export const changePassword = (input: PasswordChange) => api.post<AuthResponse>('/auth/change-password', input)
