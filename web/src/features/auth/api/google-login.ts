import { api } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'
import type { AuthResponse } from '@/lib/auth'

/** Google Identity Services ID token; the server verifies it (docs/api.md, "Accounts"). */
export const googleLogin = (credential: string) => api.post<AuthResponse>('/auth/google-login', { credential })

export const useGoogleLogin = () => useStandaloneMutation({ mutationFn: googleLogin })
