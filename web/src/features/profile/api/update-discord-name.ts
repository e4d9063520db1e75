import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useAccountChanged, type AccountAnswer } from './account'

export const updateDiscordName = (discordUsername: string) => api.post<AccountAnswer>('/auth/update-discord-username', { discordUsername })

/** The public card shows the Discord name too. */
export function useUpdateDiscordName() {
  return useMutation({ mutationFn: updateDiscordName, onSuccess: useAccountChanged() })
}
