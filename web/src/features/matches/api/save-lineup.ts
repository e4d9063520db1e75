import { matchPath, postMatch, useMatchWrite } from './match-write'

/** The captain's lineup: who of the team plays (user ids). */
export const saveLineup = (id: number, players: number[]) => postMatch(matchPath(id, 'lineup'), { players })

export const useSaveLineup = (id: number) => useMatchWrite(id, (players: number[]) => saveLineup(id, players))
