import { api } from '@/lib/api-client'
import type { SubstituteRequest } from '../types'
import { benchPath, useBenchWrite } from './substitutes'

/** A captain asks to sign a free player; an organiser answers. */
export const askSubstitute = (tournament: string, userId: number) => api.post<{ request: SubstituteRequest }>(benchPath(tournament), { userId })

export const useAskSubstitute = (tournament: string) => useBenchWrite(tournament, (userId: number) => askSubstitute(tournament, userId))
