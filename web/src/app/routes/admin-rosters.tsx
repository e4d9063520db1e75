// The rosters panel of the organisers' pages (/admin, /admin/matches): the auction's teams, with the
// players who may replace a withdrawn one (those on no team, then the waitlist) from the registrations.
import { useAuction } from '@/features/auction/api/auction'
import { RostersAdmin, type Replacement } from '@/features/auction/components/admin-withdraw'
import type { TournamentStatus } from '@/features/auction/types'
import { useRegistrations } from '@/features/tournament/api/registrations'

export function AdminRosters({ tournament, status }: { tournament: string; status: TournamentStatus }) {
  const auction = useAuction(tournament)
  const registrations = useRegistrations(tournament, { all: true })
  if (!auction.data) return null
  const replacements: Replacement[] = [
    ...auction.data.pool.map((p) => ({ id: p.user_id, name: p.name })),
    ...(registrations.data?.players ?? []).filter((p) => p.status === 'waitlisted').map((p) => ({ id: Number(p.id), name: p.name, waiting: true })),
  ]
  return <RostersAdmin tournament={tournament} status={status} teams={auction.data.teams} replacements={replacements} />
}
