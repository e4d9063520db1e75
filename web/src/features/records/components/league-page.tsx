import { useState } from 'react'
import { Link } from '@/lib/router'
import { PageHead } from '@/components/layout/page-head'
import { Avatar } from '@/components/ui/avatar'
import { Spinner } from '@/components/ui/spinner'
import { useBoard } from '../api'
import type { BoardKind, BoardRow } from '../types'
import { teamPath } from './team-page'

const BOARDS: { kind: BoardKind; label: string; unit: string }[] = [
  { kind: 'titles', label: 'Titles', unit: 'titles' },
  { kind: 'kills', label: 'Kills', unit: 'kills' },
  { kind: 'kd', label: 'K/D', unit: 'K/D' },
  { kind: 'redcaps', label: 'Red Caps', unit: 'Red Caps' },
]

function PlayerRow({ row, rank, unit, kind }: { row: BoardRow; rank: number; unit: string; kind: BoardKind }) {
  return (
    <li className="board-row">
      <span className="board-rank">{rank}</span>
      <Avatar src={row.avatar} name={row.name} size={28} />
      <span className="board-name">{row.hidden ? row.name : <Link to={`/players/${row.id}`}>{row.name}</Link>}</span>
      <span className="board-value">
        {kind === 'kd' ? row.value.toFixed(2) : row.value} <span className="muted small">{unit}</span>
      </span>
      <span className="muted small board-matches">{row.matches} matches</span>
    </li>
  )
}

function SeasonRow({ row }: { row: BoardRow }) {
  return (
    <li className="board-row season-row">
      <span className="board-name">{row.display_name}</span>
      <span className="board-champion">
        {row.champion ? (
          <>
            <span className="champion-tag">Champion</span> <Link to={teamPath(row.champion)}>{row.champion.name}</Link>
          </>
        ) : (
          <span className="muted">no champion</span>
        )}
      </span>
      <span className="muted small">{row.red_cap ? `Red Cap: ${row.red_cap}` : ''}</span>
    </li>
  )
}

function BoardList({ kind, unit }: { kind: BoardKind; unit: string }) {
  const q = useBoard(kind)
  if (q.isLoading) return <Spinner />
  if (q.error) return <p className="muted">The board could not be read.</p>
  const rows = q.data?.pages.flatMap((p) => p.rows) ?? []
  if (rows.length === 0) return <p className="muted">Nothing here yet: the board fills as seasons are played.</p>
  return (
    <>
      <ol className="board-list" aria-label={kind === 'seasons' ? 'Season archive' : `Leaderboard: ${unit}`}>
        {rows.map((r, i) => (kind === 'seasons' ? <SeasonRow key={r.id} row={r} /> : <PlayerRow key={r.id} row={r} rank={i + 1} unit={unit} kind={kind} />))}
      </ol>
      {q.hasNextPage ? (
        <button type="button" className="btn btn-ghost" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          {q.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      ) : null}
    </>
  )
}

export function LeaguePage() {
  const [kind, setKind] = useState<BoardKind>('titles')
  const board = BOARDS.find((b) => b.kind === kind) ?? BOARDS[0]
  return (
    <div className="page records-page league-records">
      <PageHead kicker="All seasons" title="League records" meta={<p className="muted page-meta">All-time leaderboards and every season's champion.</p>} />
      <section className="record-section" aria-labelledby="leaderboards">
        <h2 id="leaderboards">Leaderboards</h2>
        <div className="board-tabs" role="tablist" aria-label="Leaderboards">
          {BOARDS.map((b) => (
            <button
              key={b.kind}
              type="button"
              role="tab"
              aria-selected={b.kind === kind}
              className={`board-tab ${b.kind === kind ? 'active' : ''}`}
              onClick={() => setKind(b.kind)}
            >
              {b.label}
            </button>
          ))}
        </div>
        {kind === 'kd' ? <p className="muted small">Players with at least 5 matches.</p> : null}
        <BoardList key={kind} kind={kind} unit={board.unit} />
      </section>
      <section className="record-section" aria-labelledby="archive">
        <h2 id="archive">Season archive</h2>
        <BoardList kind="seasons" unit="" />
      </section>
    </div>
  )
}
