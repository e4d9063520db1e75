import { matchPath, postMatch, useMatchWrite } from './match-write'

/** The captain checks their side in, in the hour before the match's time. */
export const checkIn = (id: number) => postMatch(matchPath(id, 'checkin'))

export const useMatchCheckIn = (id: number) => useMatchWrite(id, () => checkIn(id))
