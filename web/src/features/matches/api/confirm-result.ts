import { matchPath, postMatch, useMatchWrite } from './match-write'

/** The other captain agrees with the reported result. */
export const confirmResult = (id: number) => postMatch(matchPath(id, 'confirm'))

export const useConfirmResult = (id: number) => useMatchWrite(id, () => confirmResult(id))
