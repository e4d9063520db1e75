import { api } from '@/lib/api-client'
import { usePlayerWrite, type RegisterResponse } from './player-write'

/** The signed-in player checks in while the tournament's check-in is open (again: already checked in). */
export const checkIn = (tournamentName: string) => api.post<RegisterResponse>('/tournament/checkin', { tournamentName })

export const useCheckIn = (tournament: string) => usePlayerWrite(tournament, checkIn)
