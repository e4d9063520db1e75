import { useMutation } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api-client'
import { useSession, type AuthResponse } from '@/lib/auth'

export type PasswordChange = { currentPassword: string; newPassword: string; confirmPassword: string }

/** Answers with a new token and the user: every older session (other devices) is signed out. */
export const changePassword = (input: PasswordChange) => api.post<AuthResponse>('/auth/change-password', input)

/** This session carries on with the new token. */
export function useChangePassword() {
  const { setSession, refresh } = useSession()
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (res) => setSession(res.token, res.user),
    // A 401 is usually the wrong current password, but may be an expired session: ask.
    onError: (err) => {
      if (err instanceof ApiError && err.status === 401) void refresh().catch(() => null)
    },
  })
}
