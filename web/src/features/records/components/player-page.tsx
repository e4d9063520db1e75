import { Link } from '@/lib/router'
import { LiveBadge } from '@/components/ui/live-badge'
import { PageHead } from '@/components/layout/page-head'
import { EmptyState } from '@/components/ui/empty-state'
import { KartImage } from '@/components/ui/kart-image'
import { Spinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import { usePlayer, useSetVisibility } from '../api'
import type { MatchLine, Profile, SeasonLine } from '../types'
import { RecordsTable } from './records-table'
import { HeadToHead } from './head-to-head'
import { StatsChart } from './stats-chart'
import { teamPath } from './team-page'
import { FollowButton, FollowCounts } from '@/components/follow/follow-button'

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="record-stat">
      <span className="record-stat-label">{label}</span>
      <span className="record-stat-value">{value}</span>
    </div>
  )
}

function Seasons({ seasons }: { seasons: SeasonLine[] }) {
  if (seasons.length === 0) return <p className="muted">No seasons yet.</p>
  return (
    <RecordsTable columns={['Season', 'Team', 'Tier', 'Price', 'Matches', 'Kills', 'Deaths', 'Red Cap']}>
      {seasons.map((s) => (
        <tr key={s.tournament}>
          <th scope="row">
            {s.display_name}
            {s.champion ? <span className="champion-tag">Champion</span> : null}
          </th>
          <td>
            {s.team ? <Link to={teamPath(s.team)}>{s.team.name}</Link> : <span className="muted">—</span>}
            {s.captain ? <span className="role-tag">Captain</span> : s.substitute ? <span className="role-tag">Sub</span> : null}
          </td>
          <td>{s.tier ?? '—'}</td>
          <td>{s.price ?? '—'}</td>
          <td>{s.matches}</td>
          <td>{s.kills}</td>
          <td>{s.deaths}</td>
          <td>{s.red_cap ? ordinal(s.red_cap) : '—'}</td>
        </tr>
      ))}
    </RecordsTable>
  )
}

function Matches({ matches }: { matches: MatchLine[] }) {
  if (matches.length === 0) return <p className="muted">No completed matches yet.</p>
  return (
    <ul className="record-matches" aria-label="Matches">
      {matches.map((m) => (
        <li key={m.match_id} className={m.won ? 'is-won' : 'is-lost'}>
          <Link to={`/matches/${m.match_id}`} className="record-match-link">
            <span className="record-match-result">{m.won ? 'W' : 'L'}</span>
            <span className="record-match-teams">
              {m.team.name} <span className="muted">vs</span> {m.opponent?.name ?? 'bye'}
              <span className="muted small">
                {' '}
                · {m.tournament} · round {m.round_number}
              </span>
            </span>
            <span className="record-match-line">
              {m.kills} kills · {m.deaths} deaths · {ordinal(m.placement)}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

function PrivacyToggle({ profile }: { profile: Profile }) {
  const set = useSetVisibility(profile.id)
  return (
    <label className="privacy-toggle">
      <input type="checkbox" checked={profile.hidden} disabled={set.isPending} onChange={(e) => set.mutate(e.target.checked)} /> Hide my
      profile (the league&apos;s brackets and tables keep my name)
    </label>
  )
}

export function PlayerPage({ id }: { id: number }) {
  const { data: p, isLoading, error } = usePlayer(id)
  const { user } = useSession()
  if (isLoading) {
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    )
  }
  if (error || !p) {
    return (
      <div className="page records-page">
        <EmptyState title={error instanceof ApiError && error.status === 404 ? 'No such player' : 'The profile could not be read'}>
          <Link to="/league">League records</Link>
        </EmptyState>
      </div>
    )
  }
  const own = user?.id === p.id
  if (p.hidden && !own) {
    return (
      <div className="page records-page">
        <PageHead kicker="Player" title={p.name} meta={<p className="muted page-meta">This player keeps the profile private.</p>} />
      </div>
    )
  }
  return (
    <div className="page records-page player-profile">
      <PageHead
        kicker="Player"
        title={p.name}
        meta={
          <p className="muted page-meta">
            Level {p.level} · Tier {p.tier} <LiveBadge playerId={id} />
            {p.discord ? (
              <>
                {' '}
                · Discord {p.discord}
                {p.discord_verified ? (
                  <span className="verified-mark" title="Discord account proven">
                    ✓ verified
                  </span>
                ) : null}
              </>
            ) : null}
          </p>
        }
      />
      {own ? <PrivacyToggle profile={p} /> : null}
      <div className="follow-row">
        <FollowButton kind="player" id={String(p.id)} name={p.name} />
        <FollowCounts userId={p.id} />
      </div>
      <section className="record-hero">
        <KartImage src={p.cart_image} alt={`${p.name}'s kart`} className="record-kart" />
        <div className="record-stats">
          <Stat label="Kills" value={p.kills ?? 0} />
          <Stat label="Deaths" value={p.deaths ?? 0} />
          <Stat label="K/D" value={(p.kd ?? 0).toFixed(2)} />
          <Stat label="Games" value={p.games_played ?? 0} />
          <Stat label="Titles" value={p.titles ?? 0} />
          <Stat label="Red Caps" value={p.red_caps ?? 0} />
        </div>
      </section>
      {p.description ? <p className="record-blurb">{p.description}</p> : null}
      {p.badges?.length ? (
        <ul className="record-badges" aria-label="Badges">
          {p.badges.map((b) => (
            <li key={b.id} style={{ borderColor: b.color }}>
              {b.name}
            </li>
          ))}
        </ul>
      ) : null}
      <section className="record-section" aria-labelledby="stats-over-time">
        <h2 id="stats-over-time">Stats over time</h2>
        <StatsChart points={p.history ?? []} />
      </section>
      <section className="record-section" aria-labelledby="seasons">
        <h2 id="seasons">Seasons</h2>
        <Seasons seasons={p.seasons ?? []} />
      </section>
      <section className="record-section" aria-labelledby="matches">
        <h2 id="matches">Matches</h2>
        <Matches matches={p.matches ?? []} />
      </section>
      <section className="record-section" aria-labelledby="head-to-head">
        <h2 id="head-to-head">Head-to-head</h2>
        <HeadToHead id={p.id} name={p.name} />
      </section>
    </div>
  )
}
