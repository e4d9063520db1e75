import { api } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'

/** The password typed at sign-up goes along, when the form still has it: the server then verifies only that sign-up. */
export const verifyOtp = (email: string, otp: string, password?: string | null) =>
  api.post<{ message: string }>('/auth/verify-otp', password ? { email, otp, password } : { email, otp })

export const useVerifyOtp = () =>
  useStandaloneMutation({ mutationFn: ({ email, otp, password }: { email: string; otp: string; password?: string | null }) => verifyOtp(email, otp, password) })
