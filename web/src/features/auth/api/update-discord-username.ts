import { api } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'
import type { User } from '@/lib/auth'

export const updateDiscordUsername = (discordUsername: string) =>
  api.post<{ message: string; user?: User }>('/auth/update-discord-username', { discordUsername })

/** The sign-up's Discord step: an answer without a message is a failure too. */
export const useUpdateDiscordUsername = () =>
  useStandaloneMutation({
    mutationFn: async (name: string) => {
      const res = await updateDiscordUsername(name)
      if (!res?.message) throw new Error('no message')
      return res
    },
  })
