// What a player sees where Register would be while the season takes no registrations: that it is
// closed and why, that their stats are kept, when the next registration opens (a next season
// announced, with its days) or, until one is, how to follow the league (league news by e-mail,
// the season's own page). A next season already taking registrations is offered to register for.
import { useMutation } from '@tanstack/react-query'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/auth'
import type { Phase } from '@/lib/phase'
import { Link } from '@/lib/router'
import { useRegister } from '@/features/tournament/api/register'
import type { NextSeason, RegistrationWindow } from './registration-window'

/** Why a season takes no registrations, by its phase. */
const WHY: Partial<Record<Phase, string>> = {
  auction: 'the captains are bidding for its players',
  matches: 'its matches are on',
  completed: 'the season is over',
}

/** Where a visitor follows the season, by its phase. */
const FOLLOW: Partial<Record<Phase, { to: string; label: string }>> = {
  auction: { to: '/auction', label: 'Watch the auction' },
  matches: { to: '/tournament?tab=bracket', label: 'Follow the matches' },
  completed: { to: '/tournament?tab=bracket', label: 'See the season' },
}

type Props = {
  season: RegistrationWindow
  user: User | null
  /** The player's stats are kept (signed in, saved). */
  statsSaved?: boolean
  /** Called when a link leaves for another page (the modal closes). */
  onLeave?: () => void
}

export function RegistrationClosed({ season: w, user, statsSaved = false, onLeave }: Props) {
  const why = w.phase ? WHY[w.phase] : undefined
  const follow = w.phase ? FOLLOW[w.phase] : undefined
  return (
    <div className="registration-closed" data-testid="registration-closed">
      <p className="registration-closed-title">
        <strong>Registration for {w.display} is closed</strong>
        {why ? `: ${why}.` : '.'}
      </p>
      {statsSaved ? <p className="muted">Your stats are saved: they are ready for the next season.</p> : null}
      {w.next ? (
        <NextSeasonLine next={w.next} signedIn={!!user} />
      ) : (
        <p>
          The next season’s registration is not announced yet{w.ends ? `; ${w.display} runs until ${w.ends}` : ''}. Follow the
          league to hear when it opens:
        </p>
      )}
      <div className="row-actions">
        {user?.email && !w.next?.register ? <LeagueNews email={user.email} /> : null}
        {follow ? (
          <Link to={follow.to} className="btn btn-ghost" onClick={onLeave}>
            {follow.label}
          </Link>
        ) : null}
      </div>
    </div>
  )
}

function NextSeasonLine({ next, signedIn }: { next: NextSeason; signedIn: boolean }) {
  const dates = next.dates ? ` (${next.dates})` : ''
  if (!next.register) {
    return (
      <p>
        The next season, <strong>{next.display}</strong>
        {dates}, is announced: its registration opens here.
      </p>
    )
  }
  return (
    <>
      <p>
        The next season, <strong>{next.display}</strong>
        {dates}, is taking registrations now.
      </p>
      {signedIn ? <NextSeasonRegister next={next} /> : null}
    </>
  )
}

function NextSeasonRegister({ next }: { next: NextSeason }) {
  const register = useRegister(next.name)
  if (register.isSuccess) {
    return <Message kind="success">{register.data?.message || `You are registered for ${next.display}.`}</Message>
  }
  return (
    <>
      <ActionButton onClick={() => register.mutate()} pending={register.isPending} pendingLabel="Registering…">
        {`Register for ${next.display}`}
      </ActionButton>
      <ErrorMessage error={register.error} fallback="Failed to register for tournament" />
    </>
  )
}

/** One click: the player's own address on the league's news list (the footer's newsletter). */
function LeagueNews({ email }: { email: string }) {
  const subscribe = useMutation({ mutationFn: () => api.post<{ message?: string }>('/newsletter', { email }) })
  if (subscribe.isSuccess) {
    return <Message kind="success">{subscribe.data?.message || 'Subscribed! League news will reach your inbox.'}</Message>
  }
  return (
    <>
      <ActionButton className="btn btn-primary" onClick={() => subscribe.mutate()} pending={subscribe.isPending} pendingLabel="Subscribing…">
        Get league news by e-mail
      </ActionButton>
      <ErrorMessage error={subscribe.error} fallback="Request failed" />
    </>
  )
}
