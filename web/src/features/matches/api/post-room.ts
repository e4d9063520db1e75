import { matchPath, postMatch, useMatchWrite } from './match-write'

/** The home captain posts the Smash Karts private room (a code or a link). */
export const postRoom = (id: number, room: string) => postMatch(matchPath(id, 'room'), { room })

export const usePostRoom = (id: number) => useMatchWrite(id, (room: string) => postRoom(id, room))
