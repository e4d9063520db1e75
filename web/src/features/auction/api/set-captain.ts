import { request } from '@/lib/api-client'
import type { LeagueTeam } from '../types'
import { adminPath, useAuctionAdminWrite } from './admin'

export const setCaptain = (tournament: string, team: string, userId: number) =>
  request<{ team: LeagueTeam }>(`${adminPath(tournament)}/teams/${team}/captain`, { method: 'PUT', body: { userId } })

export const useSetCaptain = (tournament: string, team: string) =>
  useAuctionAdminWrite(tournament, (userId: number) => setCaptain(tournament, team, userId))
