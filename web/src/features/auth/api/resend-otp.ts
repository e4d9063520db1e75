import { api, ApiError } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'
import type { CodeSent } from './signup'

export const resendOtp = (email: string) => api.post<CodeSent>('/auth/resend-otp', { email })

export const useResendOtp = () => useStandaloneMutation({ mutationFn: resendOtp })

/** A resend refused as too early, with the seconds to wait: not a failure to show, a countdown. */
export function tooEarly(err: unknown): err is ApiError & { retryAfter: number } {
  return err instanceof ApiError && err.status === 429 && !!err.retryAfter
}
