import { api } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'
import type { AuthResponse } from '@/lib/auth'

export const login = (email: string, password: string) => api.post<AuthResponse>('/auth/login', { email, password })

/** Signs in; the caller keeps the session (or refuses it: the captain sign-in takes staff only). */
export const useLogin = () => useStandaloneMutation({ mutationFn: ({ email, password }: { email: string; password: string }) => login(email, password) })
