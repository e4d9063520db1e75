import { api } from '@/lib/api-client'
import type { TournamentStatus } from '../types'
import { adminPath, useAuctionAdminWrite } from './admin'

export const setPhase = (tournament: string, status: TournamentStatus) =>
  api.post<{ name: string; status: TournamentStatus }>(`${adminPath(tournament)}/status`, { status })

/** Moves the tournament to another phase; every open page follows it live. */
export const useSetPhase = (tournament: string) => useAuctionAdminWrite(tournament, (status: TournamentStatus) => setPhase(tournament, status))
