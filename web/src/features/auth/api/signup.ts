import { api } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'

export type SignupInput = { email: string; password: string; confirmPassword: string; discordUsername: string }

/** A code was sent (or one sent lately still holds): `resend_after` is how many seconds until another may be asked for. */
export type CodeSent = { message: string; resend_after?: number }

export const signup = (input: SignupInput) => api.post<CodeSent>('/auth/signup', input)

/** Creates the account; it is used once its e-mail is verified (OTP). */
export const useSignup = () => useStandaloneMutation({ mutationFn: signup })
