import { matchPath, postMatch, useMatchWrite } from './match-write'

/** Sets when the match is played (an ISO time), or clears it with null. */
export const setTime = (id: number, at: string | null) => postMatch(matchPath(id, 'time'), { at })

export const useSetTime = (id: number) => useMatchWrite(id, (at: string | null) => setTime(id, at))
