// The check-in as players meet it: the window's state above the list, and a registered player's own
// check-in (a button while the window is open, then where they stand). Live with the list.
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { useSession } from '@/lib/auth'
import { dayTime, fromNow } from '@/lib/time'
import { useNow } from '@/lib/use-now'
import { useCheckIn } from '../api/check-in'
import { useRegistrations } from '../api/registrations'
import { checkinState, counts, waitlistPlace } from '../lib/waitlist'
import type { RegistrationsData } from '../types'

/** What the list says of the check-in, in a sentence; '' with no window. */
export function checkinSentence(data: RegistrationsData, now: number): string {
  const c = counts(data.players)
  const deadline = data.checkin?.deadline ?? null
  switch (checkinState(data.checkin, now)) {
    case 'open':
      return `Check-in is open until ${dayTime(deadline)} (${fromNow(deadline, now)}): ${c.confirmedCheckedIn} of ${c.confirmed} confirmed players checked in. Whoever has not by then moves to the waitlist.`
    case 'closing':
      return 'Check-in has closed: the players who did not check in are moving to the waitlist.'
    case 'closed':
      return `Check-in closed ${dayTime(deadline)}: ${c.confirmed} confirmed, ${c.waitlisted} on the waitlist. Organisers promote from it.`
  }
  return ''
}

/** The window's state above the registered players (nothing when there is no window). */
export function CheckinBanner({ tournament }: { tournament: string }) {
  const { data } = useRegistrations(tournament, { all: true })
  const now = useNow()
  if (!data) return null
  const text = checkinSentence(data, now)
  if (!text) return null
  const open = checkinState(data.checkin, now) === 'open'
  return (
    <p className={`msg ${open ? 'msg-info' : 'msg-alert'} checkin-banner`} data-testid="checkin-banner">
      {text}
    </p>
  )
}

/** The signed-in player's check-in: a button while the window is open, else where they stand. */
export function CheckinButton({ tournament, className = 'btn btn-primary' }: { tournament: string; className?: string }) {
  const { user } = useSession()
  const { data } = useRegistrations(tournament, { all: true })
  const now = useNow()
  const checkIn = useCheckIn(tournament)
  const said = checkIn.data?.message ?? ''
  const own = user && data?.players.find((p) => String(p.id) === String(user.id))
  if (!own || !data) return null
  const place = waitlistPlace(data.players, own.id)
  const open = checkinState(data.checkin, now) === 'open'
  const waiting = place > 0 ? (
    <span className="status-pill status-waitlisted" data-testid="own-waitlist">
      Waitlist · place {place}
    </span>
  ) : null
  if (own.checked_in_at) {
    return (
      <span className="checkin-own">
        <span className="status-pill status-checked-in" data-testid="own-checkin">
          ✓ Checked in
        </span>
        {waiting}
        <Message kind="success">{said}</Message>
      </span>
    )
  }
  if (!open) return waiting
  return (
    <span className="checkin-own">
      <ActionButton className={className} onClick={() => checkIn.mutate()} pending={checkIn.isPending} pendingLabel="Checking in…">
        {place > 0 ? 'Check in (waitlist)' : 'Check in'}
      </ActionButton>
      {waiting}
      <ErrorMessage error={checkIn.error} fallback="The check-in failed." />
    </span>
  )
}
