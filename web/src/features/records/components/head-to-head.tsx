import { useState } from 'react'
import { Link } from '@/lib/router'
import { Spinner } from '@/components/ui/spinner'
import { useSearch, useVersus } from '../api'

/** A player's head-to-head with another, found by name: the matches they met in and who won. */
export function HeadToHead({ id, name }: { id: number; name: string }) {
  const [q, setQ] = useState('')
  const [other, setOther] = useState<number | null>(null)
  const found = useSearch(q.trim().length >= 2 && other === null ? q.trim() : '', 6)
  const versus = useVersus(id, other)
  const candidates = (found.data?.pages[0]?.players ?? []).filter((p) => p.id !== id)
  const v = versus.data
  return (
    <div className="head-to-head">
      <div className="h2h-pick">
        <input
          type="search"
          value={q}
          maxLength={40}
          placeholder="Another player's name"
          aria-label="Compare with another player"
          onChange={(e) => {
            setQ(e.target.value)
            setOther(null)
          }}
        />
        {other === null && candidates.length ? (
          <ul className="h2h-candidates" aria-label="Players to compare with">
            {candidates.map((p) => (
              <li key={p.id}>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOther(p.id)}>
                  {p.name}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {other === null ? null : versus.isLoading ? (
        <Spinner />
      ) : !v ? (
        <p className="muted">The head-to-head could not be read.</p>
      ) : (
        <>
          <p className="h2h-score" aria-live="polite">
            {name} <strong>{v.wins}</strong> – <strong>{v.losses}</strong>{' '}
            <Link to={`/players/${v.opponent.id}`}>{v.opponent.name}</Link>
            <span className="muted small"> in {v.meetings.length} meeting{v.meetings.length === 1 ? '' : 's'}</span>
          </p>
          <ul className="record-matches">
            {v.meetings.map((m) => (
              <li key={m.match_id} className={m.won ? 'is-won' : m.won === false ? 'is-lost' : ''}>
                <Link to={`/matches/${m.match_id}`} className="record-match-link">
                  <span className="record-match-result">{m.won ? 'W' : m.won === false ? 'L' : '·'}</span>
                  <span className="record-match-teams">
                    {m.team.name} <span className="muted">vs</span> {m.opponent.name}
                    <span className="muted small"> · {m.tournament} · round {m.round_number}</span>
                  </span>
                  <span className="record-match-line">
                    {m.kills} – {m.opponent_kills} kills
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
