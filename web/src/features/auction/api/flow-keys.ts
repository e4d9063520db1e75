// What the auction's flow calls share: the organisers' path, and what to read again once one is done.
import type { QueryClient } from '@tanstack/react-query'
import { auditKey } from './admin'
import { auctionKey } from './auction'

export const adminPath = (tournament: string) => `/admin/tournaments/${encodeURIComponent(tournament)}/auction`
export const captainPath = (tournament: string) => `/tournaments/${encodeURIComponent(tournament)}/auction`

/** The live events bring the change; reading again covers a page whose socket is down. */
export function readAgain(qc: QueryClient, tournament: string) {
  void qc.invalidateQueries({ queryKey: auctionKey(tournament) })
  void qc.invalidateQueries({ queryKey: auditKey(tournament) })
}
