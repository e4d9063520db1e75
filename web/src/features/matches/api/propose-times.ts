import { matchPath, postMatch, useMatchWrite } from './match-write'

/** A captain proposes one to three times (ISO): the home side first, the away side to counter. */
export const proposeTimes = (id: number, times: string[]) => postMatch(matchPath(id, 'proposal'), { times })

export const useProposeTimes = (id: number) => useMatchWrite(id, (times: string[]) => proposeTimes(id, times))
