import { Link } from '@/lib/router'
import { PageHead } from '@/components/layout/page-head'
import { Avatar } from '@/components/ui/avatar'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useTeamPage } from '../api'
import type { Member, TeamRef } from '../types'
import { RecordsTable } from './records-table'

/** A team's page in its season. */
export const teamPath = (t: Pick<TeamRef, 'tournament' | 'letter'>) =>
  `/tournaments/${encodeURIComponent(t.tournament)}/teams/${encodeURIComponent(t.letter)}`

function MemberRow({ m }: { m: Member }) {
  return (
    <tr>
      <th scope="row" className="member-cell">
        <Avatar src={m.avatar} name={m.name} size={28} />
        {m.hidden ? m.name : <Link to={`/players/${m.id}`}>{m.name}</Link>}
        {m.captain ? <span className="role-tag">Captain</span> : m.substitute ? <span className="role-tag">Sub</span> : null}
      </th>
      <td>{m.tier ?? '—'}</td>
      <td>{m.price ?? '—'}</td>
      <td>{m.matches}</td>
      <td>{m.kills}</td>
      <td>{m.deaths}</td>
    </tr>
  )
}

export function TeamPage({ tournament, letter }: { tournament: string; letter: string }) {
  const { data: t, isLoading, error } = useTeamPage(tournament, letter)
  if (isLoading) {
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    )
  }
  if (error || !t) {
    return (
      <div className="page records-page">
        <EmptyState title="No such team">
          <Link to="/league">League records</Link>
        </EmptyState>
      </div>
    )
  }
  const members = [...(t.captain ? [t.captain] : []), ...t.roster]
  return (
    <div className="page records-page team-profile">
      <PageHead
        kicker={t.display_name}
        title={
          <>
            {t.logo ? <img className="team-logo-lg" src={t.logo} alt="" width={40} height={40} /> : null} {t.name}
            {t.champion ? <span className="champion-tag">Champion</span> : null}
          </>
        }
        meta={
          <p className="muted page-meta">
            {t.standing
              ? `#${t.position} · ${t.standing.won} won, ${t.standing.lost} lost · ${t.standing.points} points`
              : 'No results yet'}
          </p>
        }
      />
      <section className="record-section" aria-labelledby="roster">
        <h2 id="roster">Roster</h2>
        <RecordsTable columns={['Player', 'Tier', 'Price', 'Matches', 'Kills', 'Deaths']}>
          {members.map((m) => (
            <MemberRow key={m.id} m={m} />
          ))}
        </RecordsTable>
      </section>
      <section className="record-section" aria-labelledby="fixtures">
        <h2 id="fixtures">Fixtures and results</h2>
        {t.fixtures.length === 0 ? (
          <p className="muted">No fixtures yet.</p>
        ) : (
          <ul className="record-matches">
            {t.fixtures.map((f) => (
              <li key={f.id} className={f.won === true ? 'is-won' : f.won === false ? 'is-lost' : ''}>
                <Link to={`/matches/${f.id}`} className="record-match-link">
                  <span className="record-match-result">{f.won === true ? 'W' : f.won === false ? 'L' : '·'}</span>
                  <span className="record-match-teams">
                    vs {f.opponent ? f.opponent.name : 'to be decided'}
                    <span className="muted small"> · round {f.round_number}</span>
                  </span>
                  <span className="record-match-line">{f.status === 'completed' ? `${f.kills} – ${f.opponent_kills} kills` : f.status}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
