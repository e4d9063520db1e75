// Session state: the stored token and the signed-in user, read through TanStack Query.
// On load a stored token is checked against /api/auth/profile; a 401 removes it (docs/site.md, "The player's path").
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import { api, ApiError, setUnauthorizedHandler, tokenStore, TOKEN_EVENT, TOKEN_KEY } from './api-client'
import { rememberSession } from './role-hint'

export type Role = 'user' | 'captain' | 'staff' | 'admin'

export type User = {
  id: number | string
  email: string
  name: string
  role: Role
  email_verified: boolean
  discord_username: string | null
  /** The proven Discord account's id ('' or absent: none); discord_verified is true exactly when it is set. */
  discord_id?: string
  discord_verified: boolean
  sk_stats_verified: boolean
  sk_stats_uploaded: boolean
  tournament_registered: boolean
  stats_data: Record<string, unknown> | null
  /** false for an account that signs in with Google only. */
  has_password?: boolean
  /** The tournaments the account co-organises (role 'staff'). */
  staff_of?: string[]
  google_linked?: boolean
  security?: Security
}

/** Where the account's sign-in stands: this session, and the second factor guarding an organiser's powers. */
export type Security = {
  session_id: number
  /** An organiser's account whose session must use its second factor before it acts as one. */
  organiser_locked: boolean
  second_factor_available: boolean
  second_factor_required: boolean
  session_verified: boolean
  totp: boolean
  passkeys: number
  recovery_codes_left: number
  passkeys_on: boolean
}

export type AuthResponse = { token: string; user: User; message?: string }

export const userQueryKey = ['auth', 'user'] as const

export async function getProfile(): Promise<User | null> {
  if (!tokenStore.get()) return null
  try {
    const { user } = await api.get<{ user: User }>('/auth/profile')
    rememberSession(user)
    return user
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      tokenStore.clear()
      return null
    }
    throw err
  }
}

export function installUnauthorizedHandler(qc: QueryClient) {
  setUnauthorizedHandler(() => {
    tokenStore.clear()
    qc.setQueryData(userQueryKey, null)
  })
}

export function useUser() {
  // A 401 signs out (getProfile drops the token); a network error or a 5xx keeps the token and
  // is retried with backoff, so a server blip does not sign every player out.
  return useQuery({
    queryKey: userQueryKey,
    queryFn: getProfile,
    staleTime: 60_000,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 4,
    retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 15_000),
  })
}

/** Keeps other tabs in step: a login or logout elsewhere refetches the profile here. */
export function useTokenSync() {
  const qc = useQueryClient()
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === TOKEN_KEY) qc.invalidateQueries({ queryKey: userQueryKey })
    }
    window.addEventListener('storage', onStorage)
    return () => window.removeEventListener('storage', onStorage)
  }, [qc])
}

export function useSession() {
  const qc = useQueryClient()
  const { data, isLoading } = useUser()

  const setSession = useCallback(
    (token: string, user: User) => {
      tokenStore.set(token)
      rememberSession(user)
      qc.setQueryData(userQueryKey, user)
    },
    [qc],
  )
  const logout = useCallback(() => {
    tokenStore.clear()
    qc.setQueryData(userQueryKey, null)
    qc.removeQueries({ queryKey: ['stats'] })
  }, [qc])
  const refresh = useCallback(async () => {
    const user = await getProfile()
    qc.setQueryData(userQueryKey, user)
    return user
  }, [qc])

  return { user: data ?? null, isLoading: isLoading && !!tokenStore.get(), setSession, logout, refresh }
}

export { TOKEN_EVENT }
