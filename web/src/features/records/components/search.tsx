import { Link, useSearchParams } from '@/lib/router'
import { PageHead } from '@/components/layout/page-head'
import { Avatar } from '@/components/ui/avatar'
import { Spinner } from '@/components/ui/spinner'
import { useSearch } from '../api'
import { SearchBox } from './search-box'
import { teamPath } from './team-page'

export function SearchPage() {
  const [params] = useSearchParams()
  const q = (params.get('q') ?? '').trim()
  const s = useSearch(q)
  const players = s.data?.pages.flatMap((p) => p.players) ?? []
  const teams = s.data?.pages[0]?.teams ?? []
  return (
    <div className="page records-page search-page">
      <PageHead kicker="Search" title={q ? `“${q}”` : 'Find a player or team'} />
      <SearchBox label="Search players and teams" />
      {!q ? null : s.isLoading ? (
        <Spinner />
      ) : (
        <>
          {teams.length ? (
            <section className="record-section" aria-labelledby="found-teams">
              <h2 id="found-teams">Teams</h2>
              <ul className="board-list">
                {teams.map((t) => (
                  <li key={`${t.tournament}-${t.letter}`} className="board-row">
                    <Link to={teamPath(t)}>{t.name}</Link> <span className="muted small">{t.display_name}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section className="record-section" aria-labelledby="found-players">
            <h2 id="found-players">Players</h2>
            {players.length === 0 ? (
              <p className="muted">No player&apos;s name holds “{q}”.</p>
            ) : (
              <ul className="board-list" aria-label="Players found">
                {players.map((p) => (
                  <li key={p.id} className="board-row">
                    <Avatar src={p.avatar} name={p.name} size={28} />
                    <span className="board-name">
                      <Link to={`/players/${p.id}`}>{p.name}</Link>
                    </span>
                    <span className="muted small">
                      Tier {p.tier} · K/D {p.kd.toFixed(2)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {s.hasNextPage ? (
              <button type="button" className="btn btn-ghost" disabled={s.isFetchingNextPage} onClick={() => void s.fetchNextPage()}>
                Show more
              </button>
            ) : null}
          </section>
        </>
      )}
    </div>
  )
}
