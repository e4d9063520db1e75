import { api } from '@/lib/api-client'
import type { User } from '@/lib/auth'
import { useStandaloneMutation } from '@/lib/mutations'
import { signWithPasskey, type PasskeyOptions } from '@/lib/webauthn'

type Answer = { message: string; user: User }

/** A code from the authenticator app, or a recovery code: this session may then act as an organiser. */
export const verifyCode = (code: string) => api.post<Answer>('/auth/2fa/verify', { code })

/** One of the account's passkeys, through the browser's prompt; null when the player closed it. */
export async function verifyPasskey(): Promise<Answer | null> {
  const { ceremony, options } = await api.post<{ ceremony: string; options: PasskeyOptions }>('/auth/2fa/passkey/begin')
  const credential = await signWithPasskey(options)
  if (!credential) return null
  return api.post<Answer>('/auth/2fa/passkey/finish', { ceremony, credential })
}

export const useVerifyCode = () => useStandaloneMutation({ mutationFn: verifyCode })
export const useVerifyPasskey = () => useStandaloneMutation({ mutationFn: verifyPasskey })
