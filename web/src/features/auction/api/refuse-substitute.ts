import { api } from '@/lib/api-client'
import type { SubstituteRequest } from '../types'
import { requestPath, useBenchWrite } from './substitutes'

/** The captain reads the reason. */
export const refuseSubstitute = (tournament: string, id: number, reason: string) =>
  api.post<{ request: SubstituteRequest }>(`${requestPath(tournament, id)}/refuse`, { reason })

export const useRefuseSubstitute = (tournament: string, id: number) =>
  useBenchWrite(tournament, (reason: string) => refuseSubstitute(tournament, id, reason))
