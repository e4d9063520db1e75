// The signed-in player's dashboard inside the auth modal: progress, registration (the app
// plugs in the tournament's part) and account settings.
import type { ReactNode } from 'react'
import type { User } from '@/lib/auth'
import { CalendarLink } from '@/components/calendar-link'
import { DiscordLink } from './discord-link'
import { TwitchLink } from './twitch-link'
import { DiscordNameForm } from './discord-name-form'
import { EmailForm } from './email-form'
import { PasswordForm } from './password-form'
import { SessionsList } from './sessions-list'
import { needsSecondFactor, type ConfirmPrompt } from './step-up'
import { TwoStep } from './two-step'
import { YourData } from './your-data'
import { staffRole } from '@/lib/authorization'

function statOf(user: User, ...keys: string[]) {
  const s = user.stats_data ?? {}
  for (const k of keys) {
    const v = s[k]
    if (v !== undefined && v !== null && v !== '') return String(v)
  }
  return '—'
}

/** A titled part of the profile. */
function ProfileSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="profile-section" aria-labelledby={id}>
      <h3 id={id} className="profile-section-title">
        {title}
      </h3>
      {children}
    </section>
  )
}

type Props = {
  user: User
  onUploadStats: () => void
  onTournament: () => void
  onLogout: () => void
  /** The tournament registration block (status, unregister), from the app layer. */
  registration?: ReactNode
  /** The notification settings, from the app layer. */
  notifications?: ReactNode
  /** The prompt that confirms this session with its second factor (intro: what for), from the app layer. */
  confirmSecondFactor?: ConfirmPrompt
}

export function ProfileView({ user, onUploadStats, onTournament, onLogout, registration, notifications, confirmSecondFactor }: Props) {
  const checks: [string, boolean][] = [
    ['E-mail verified', user.email_verified],
    ['Discord verified', user.discord_verified],
    ['SK stats uploaded', user.sk_stats_uploaded],
    ['Registered for the tournament', user.tournament_registered],
  ]
  // The account's own changes wait for the second factor once there is one (the server's rule).
  const stepUp = needsSecondFactor(user) ? confirmSecondFactor : undefined
  return (
    <div className="profile-view">
      <div className="profile-head">
        <span className="avatar avatar-initials" aria-hidden="true" style={{ width: 56, height: 56 }}>
          {(user.name || user.email).slice(0, 2).toUpperCase()}
        </span>
        <div>
          <p className="profile-name">{user.name || user.discord_username || user.email}</p>
          <p className="muted">{user.email}</p>
          {staffRole(user) ? <span className="role-pill">{staffRole(user)}</span> : null}
        </div>
      </div>
      <dl className="profile-facts">
        <div>
          <dt>Discord</dt>
          <dd>
            {user.discord_username || 'not linked'}
            {user.discord_username ? (
              <span className={user.discord_verified ? 'badge-verified' : 'badge-unverified'}>
                {user.discord_verified ? ' ✓ verified' : ' unverified'}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>K/D</dt>
          <dd>{statOf(user, 'kd', 'kd_ratio')}</dd>
        </div>
        <div>
          <dt>Level</dt>
          <dd>{statOf(user, 'level')}</dd>
        </div>
        <div>
          <dt>Games</dt>
          <dd>{Number(statOf(user, 'games_played', 'total_games')) > 0 ? statOf(user, 'games_played', 'total_games') : '—'}</dd>
        </div>
      </dl>
      <ul className="checklist">
        {checks.map(([label, ok]) => (
          <li key={label} className={ok ? 'ok' : 'todo'}>
            <span aria-hidden="true">{ok ? '✓' : '○'}</span> {label}
            <span className="sr-only">{ok ? ': done' : ': not yet'}</span>
          </li>
        ))}
      </ul>
      {registration ? (
        <ProfileSection id="profile-registration" title="Tournament">
          {registration}
        </ProfileSection>
      ) : null}
      <section className="profile-section" aria-labelledby="profile-account">
        <h3 id="profile-account" className="profile-section-title">
          Account
        </h3>
        <DiscordLink user={user} />
        <TwitchLink />
        <CalendarLink />
        {/* A proven link is changed by unlinking it; the server refuses a typed name over it. */}
        {user.discord_verified ? null : <DiscordNameForm current={user.discord_username} />}
        <EmailForm user={user} stepUp={stepUp} />
        {user.has_password === false ? null : <PasswordForm stepUp={stepUp} />}
      </section>
      <ProfileSection id="profile-security" title="Sign-in & security">
        <TwoStep user={user} confirmPrompt={confirmSecondFactor?.()} />
        <SessionsList />
      </ProfileSection>
      {notifications ? (
        <ProfileSection id="profile-notifications" title="Notifications">
          {notifications}
        </ProfileSection>
      ) : null}
      <ProfileSection id="profile-data" title="Your data">
        <YourData user={user} stepUp={stepUp} />
      </ProfileSection>
      <div className="row-actions">
        <button type="button" className="btn btn-primary" onClick={onUploadStats}>
          {user.sk_stats_uploaded ? 'Stats & registration' : 'Upload SK stats'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onTournament}>
          Go to Tournament Page
        </button>
        <button type="button" className="btn btn-ghost" onClick={onLogout}>
          Logout
        </button>
      </div>
    </div>
  )
}
