// The account's sign-in: its sessions, its address, its second factors, and its data (export, deletion).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useSession, type User } from '@/lib/auth'
import { createPasskey, type PasskeyOptions } from '@/lib/webauthn'
import { useAccountChanged, type AccountAnswer } from './account'

export type SessionInfo = {
  id: number
  client: string
  method: string
  created_at: string
  seen_at: string
  expires_at: string
  second_factor_at: string | null
  current: boolean
}

export const sessionsKey = ['auth', 'sessions'] as const

export function useSessions(enabled = true) {
  return useQuery({ queryKey: sessionsKey, queryFn: () => api.get<{ sessions: SessionInfo[] }>('/auth/sessions').then((r) => r.sessions), enabled })
}

/** Signs one session out; ending this one signs this browser out too. */
export function useEndSession() {
  const qc = useQueryClient()
  const { logout } = useSession()
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string; current: boolean }>(`/auth/sessions/${id}`),
    onSuccess: (res) => (res.current ? logout() : void qc.invalidateQueries({ queryKey: sessionsKey })),
  })
}

/** Signs out everywhere (others: every session but this one); the calendar feed gets a new address too. */
export function useSignOutEverywhere() {
  const qc = useQueryClient()
  const { logout } = useSession()
  return useMutation({
    mutationFn: (others: boolean) => api.post<{ message: string; ended: number }>('/auth/sessions/revoke', { others }),
    onSuccess: (_res, others) => {
      if (!others) return logout()
      void qc.invalidateQueries({ queryKey: sessionsKey })
      void qc.invalidateQueries({ queryKey: ['calendar', '/auth/calendar'] })
    },
  })
}

export const requestEmailChange = (email: string, password: string) =>
  api.post<{ message: string }>('/me/email', password ? { email, password } : { email })

export function useRequestEmailChange() {
  return useMutation({ mutationFn: ({ email, password }: { email: string; password: string }) => requestEmailChange(email, password) })
}

export function useConfirmEmailChange() {
  return useMutation({ mutationFn: (code: string) => api.post<AccountAnswer>('/me/email/confirm', { code }), onSuccess: useAccountChanged() })
}

export type TOTPSetup = { secret: string; otpauth_url: string; qr: string }

export function useBeginTOTP() {
  return useMutation({ mutationFn: (password: string) => api.post<TOTPSetup>('/me/2fa/totp', password ? { password } : {}) })
}

export function useConfirmTOTP() {
  const changed = useAccountChanged()
  return useMutation({
    mutationFn: (code: string) => api.post<AccountAnswer & { recovery_codes: string[] }>('/me/2fa/totp/confirm', { code }),
    onSuccess: changed,
  })
}

export function useRemoveTOTP() {
  return useMutation({ mutationFn: () => api.delete<AccountAnswer>('/me/2fa/totp'), onSuccess: useAccountChanged() })
}

export function useNewRecoveryCodes() {
  const changed = useAccountChanged()
  return useMutation({
    mutationFn: () => api.post<{ message: string; recovery_codes: string[] }>('/me/2fa/recovery-codes'),
    onSuccess: () => changed(undefined),
  })
}

export type PasskeyInfo = { id: string; name: string; created_at: string; last_used_at: string | null }
export const passkeysKey = ['auth', 'passkeys'] as const

export function usePasskeys(enabled: boolean) {
  return useQuery({ queryKey: passkeysKey, queryFn: () => api.get<{ passkeys: PasskeyInfo[] }>('/me/passkeys').then((r) => r.passkeys), enabled })
}

/** Adds a passkey: the server's options, the browser's prompt, the answer back. Null when cancelled. */
export async function addPasskey(name: string, password: string): Promise<AccountAnswer | null> {
  const { ceremony, options } = await api.post<{ ceremony: string; options: PasskeyOptions }>('/me/passkeys/begin', password ? { password } : {})
  const credential = await createPasskey(options)
  if (!credential) return null
  return api.post<AccountAnswer>('/me/passkeys/finish', { ceremony, name, credential })
}

export function useAddPasskey() {
  const qc = useQueryClient()
  const changed = useAccountChanged()
  return useMutation({
    mutationFn: ({ name, password }: { name: string; password: string }) => addPasskey(name, password),
    onSuccess: (res) => {
      if (res) changed(res)
      void qc.invalidateQueries({ queryKey: passkeysKey })
    },
  })
}

export function useRemovePasskey() {
  const qc = useQueryClient()
  const changed = useAccountChanged()
  return useMutation({
    mutationFn: (id: string) => api.delete<AccountAnswer>(`/me/passkeys/${encodeURIComponent(id)}`),
    onSuccess: (res) => (changed(res), void qc.invalidateQueries({ queryKey: passkeysKey })),
  })
}

/** The player's copy of their data, saved as a file. */
export async function downloadExport(user: Pick<User, 'id'>) {
  const data = await api.get<unknown>('/me/export')
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }))
  const a = document.createElement('a')
  a.href = url
  a.download = `pitlane-account-${user.id}.json`
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function useDeleteAccount() {
  const { logout } = useSession()
  return useMutation({ mutationFn: (password: string) => api.delete<{ message: string }>('/me', password ? { password } : {}), onSuccess: () => logout() })
}
