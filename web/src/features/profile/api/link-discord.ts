import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** Where to send the browser to link Discord (OAuth2); the server also sets the flow's state cookie. */
export const discordAuthorizeUrl = () => api.get<{ url: string }>('/auth/discord/authorize')

/** Starts linking Discord: asks for the authorize URL, then `go`es there (the page leaves). */
export function useLinkDiscord(go: (url: string) => void) {
  return useMutation({ mutationFn: discordAuthorizeUrl, onSuccess: ({ url }) => go(url) })
}
