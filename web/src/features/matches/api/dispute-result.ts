import { matchPath, postMatch, useMatchWrite } from './match-write'

/** The other captain disputes the reported result, saying why; an organiser rules. */
export const disputeResult = (id: number, reason: string) => postMatch(matchPath(id, 'dispute'), { reason })

export const useDisputeResult = (id: number) => useMatchWrite(id, (reason: string) => disputeResult(id, reason))
