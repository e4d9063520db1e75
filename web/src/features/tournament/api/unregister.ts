import { api } from '@/lib/api-client'
import { usePlayerWrite, type RegisterResponse } from './player-write'

export const unregisterFromTournament = (tournamentName: string) => api.post<RegisterResponse>('/tournament/unregister', { tournamentName })

/** The player's card leaves the list at once. */
export const useUnregister = (tournament: string) => usePlayerWrite(tournament, unregisterFromTournament)
