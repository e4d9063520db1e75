import type { ResultInput } from '../types'
import { postMatch, useMatchWrite } from './match-write'

/** An organiser's ruling or correction of the result (audited). */
export const resolveResult = (id: number, result: ResultInput) => postMatch(`/admin/matches/${id}/resolve`, result)

export const useResolveResult = (id: number) => useMatchWrite(id, (result: ResultInput) => resolveResult(id, result))
