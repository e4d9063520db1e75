import { matchPath, postMatch, useMatchWrite } from './match-write'

/** The side that did not propose accepts one of the proposed times. */
export const acceptTime = (id: number, at: string) => postMatch(matchPath(id, 'accept'), { at })

export const useAcceptTime = (id: number) => useMatchWrite(id, (at: string) => acceptTime(id, at))
