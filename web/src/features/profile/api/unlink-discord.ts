import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useAccountChanged, type AccountAnswer } from './account'

/** Drops the proven link; the name stays, unverified. */
export const unlinkDiscord = () => api.delete<AccountAnswer>('/auth/discord')

export function useUnlinkDiscord() {
  return useMutation({ mutationFn: unlinkDiscord, onSuccess: useAccountChanged() })
}
