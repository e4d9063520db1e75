import { api } from '@/lib/api-client'
import type { SubstituteRequest } from '../types'
import { requestPath, useBenchWrite } from './substitutes'

export const approveSubstitute = (tournament: string, id: number) => api.post<{ request: SubstituteRequest }>(`${requestPath(tournament, id)}/approve`)

export const useApproveSubstitute = (tournament: string, id: number) => useBenchWrite(tournament, () => approveSubstitute(tournament, id))
