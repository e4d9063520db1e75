import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { adminPath } from './registrations'

export type StaffMember = { user_id: number; name: string; granted_by: string; granted_at: string }
export type AccountRef = { id: number; name: string; discord_username: string; discord_verified: boolean }

export const staffKey = (tournament: string) => ['tournament', tournament, 'staff'] as const

export function useStaff(tournament: string, enabled = true) {
  return useQuery({
    queryKey: staffKey(tournament),
    queryFn: () => api.get<{ staff: StaffMember[] }>(`${adminPath(tournament)}/staff`).then((r) => r.staff),
    enabled,
  })
}

/** Organisers find the account to grant: part of a name or Discord name, or the exact e-mail. */
export const findAccounts = (q: string) => api.get<{ accounts: AccountRef[] }>(`/admin/accounts?q=${encodeURIComponent(q)}`).then((r) => r.accounts)

export function useChangeStaff(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, grant }: { userId: number; grant: boolean }) =>
      grant
        ? api.put<{ staff: StaffMember[] }>(`${adminPath(tournament)}/staff/${userId}`, {})
        : api.delete<{ staff: StaffMember[] }>(`${adminPath(tournament)}/staff/${userId}`),
    onSuccess: (res) => qc.setQueryData(staffKey(tournament), res.staff),
  })
}
