import { api } from '@/lib/api-client'
import { usePlayerWrite, type RegisterResponse } from './player-write'

export const registerForTournament = (tournamentName: string) => api.post<RegisterResponse>('/tournament/register', { tournamentName })

/** Registers the signed-in player (on the waitlist once the cap is reached). */
export const useRegister = (tournament: string) => usePlayerWrite(tournament, registerForTournament)
