import { matchPath, postMatch, useMatchWrite } from './match-write'

/** A captain gives the match up: the other side wins, with no kills counted. */
export const forfeit = (id: number) => postMatch(matchPath(id, 'forfeit'))

export const useForfeit = (id: number) => useMatchWrite(id, () => forfeit(id))
