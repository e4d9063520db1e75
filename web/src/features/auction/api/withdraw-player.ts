import { api } from '@/lib/api-client'
import { adminPath, useAuctionAdminWrite } from './admin'

/** What a player's withdrawal did: the team they left (none: absent), and who took their slot. */
export type PlayerWithdrawal = {
  tournament: string
  user_id: number
  name: string
  reason: string
  team?: string
  replacement: { id: number; name: string } | null
}

/** An organiser's withdrawal: why, and (in the matches phase) who takes the slot (0: nobody). */
export type WithdrawInput = { userId: number; reason: string; replacement?: number }

/** Withdraws a player from the season (audited): their registration goes, their slot is freed or handed on. */
export const withdrawPlayer = (tournament: string, { userId, reason, replacement = 0 }: WithdrawInput) =>
  api
    .post<{ withdrawal: PlayerWithdrawal }>(`${adminPath(tournament)}/players/${userId}/withdraw`, replacement ? { reason, replacement } : { reason })
    .then((d) => d.withdrawal)

export const useWithdrawPlayer = (tournament: string) => useAuctionAdminWrite(tournament, (input: WithdrawInput) => withdrawPlayer(tournament, input))
