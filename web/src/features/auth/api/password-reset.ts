import { api } from '@/lib/api-client'
import type { AuthResponse } from '@/lib/auth'
import { useStandaloneMutation } from '@/lib/mutations'

export type ResetRequestAnswer = { message: string; resend_after: number }
export type ResetInput = { email: string; code: string; password: string; confirmPassword: string }

/** Mails a reset code when the address has an account; the answer is the same for every address. */
export const requestReset = (email: string) => api.post<ResetRequestAnswer>('/auth/password-reset/request', { email })

/** Sets the new password with the code: every session of the account ends, and this browser is signed in anew. */
export const confirmReset = (input: ResetInput) => api.post<AuthResponse>('/auth/password-reset/confirm', input)

export const useRequestReset = () => useStandaloneMutation({ mutationFn: requestReset })
export const useConfirmReset = () => useStandaloneMutation({ mutationFn: confirmReset })
