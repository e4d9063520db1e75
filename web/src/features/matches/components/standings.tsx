import type { ReactNode } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { CrownIcon, FlameIcon } from '@/components/ui/icons'
import { Spinner } from '@/components/ui/spinner'
import { useRedCap, useStandings } from '../api/league'
import { swissRecord } from '../lib/bracket-model'
import { scoringLine, tieBreakLine } from '../lib/tables'
import type { TableRow } from '../types'

/** A column of a teams' table: its heading (with what it means, when short) and its cell. */
type Column = { head: string; title?: string; cell: (r: TableRow) => ReactNode; points?: boolean }

const signed = (n: number) => (n > 0 ? `+${n}` : String(n))

const col = {
  played: { head: 'P', title: 'Played', cell: (r) => r.played },
  won: { head: 'W', title: 'Won', cell: (r) => r.won },
  lost: { head: 'L', title: 'Lost', cell: (r) => r.lost },
  kills: { head: 'Kills', cell: (r) => r.kills },
  deaths: { head: 'Deaths', cell: (r) => r.deaths },
  killDiff: { head: '+/−', title: 'Kill difference', cell: (r) => signed(r.kill_difference) },
  killPoints: { head: 'KP', title: 'Kill points', cell: (r) => r.kill_points },
  byes: { head: 'Bye', title: 'Byes: rounds sat out, each a win', cell: (r) => r.byes ?? 0 },
  buchholz: { head: 'Bh', title: 'Buchholz: the points of the teams played', cell: (r) => r.buchholz ?? 0 },
  record: { head: 'W–L', title: 'Won–lost, and byes', cell: (r) => swissRecord(r) },
  points: { head: 'Pts', title: 'Points', cell: (r) => r.points, points: true },
} satisfies Record<string, Column>

/**
 * Teams ranked, one row each: the place, the team, then the columns; `rowClass` marks a row. A phone
 * scrolls the columns sideways, so `hint` says so above the table (hidden where the table fits).
 */
function TeamsTable({ caption, rows, columns, rowClass, hint = false }: { caption: string; rows: TableRow[]; columns: Column[]; rowClass?: (i: number) => string | undefined; hint?: boolean }) {
  return (
    <>
      {hint ? (
        <p className="table-scroll-hint muted" aria-hidden="true">
          Swipe sideways for the other columns →
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="league-table">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col" className="col-name">
                Team
              </th>
              {columns.map((c) => (
                <th key={c.head} scope="col" title={c.title}>
                  {c.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.team} data-team={r.team} className={[rowClass?.(i), r.withdrawn ? 'is-withdrawn' : ''].filter(Boolean).join(' ') || undefined}>
                <td>{i + 1}</td>
                <th scope="row" className="col-name">
                  <span className="team-letter-sm" aria-hidden="true">
                    {r.team}
                  </span>{' '}
                  {r.name || `Team ${r.team}`}
                  {r.withdrawn ? <span className="status-pill status-withdrawn">Withdrawn</span> : null}
                </th>
                {columns.map((c) => (
                  <td key={c.head} className={c.points ? 'col-points' : undefined}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

const SWISS_NOTE = 'A bye counts as a win; Buchholz adds up the points of the teams a team played.'

/** The Points Table, live: the scoring and the tiebreak order are stated under it (a Swiss stage's standings for swiss). */
export function PointsTable({ tournament }: { tournament: string }) {
  const { data, isLoading, isError } = useStandings(tournament)
  if (isLoading) return <Spinner label="Loading the Points Table" />
  if (isError || !data) return <EmptyState title="The Points Table could not be loaded." />
  const swiss = data.stage === 'swiss'
  const rules = (
    <p className="table-rules" data-testid="table-rules">
      {scoringLine(data.scoring)}
      {swiss ? ` ${SWISS_NOTE}` : ''} {tieBreakLine(data.tie_break)}
    </p>
  )
  if (data.rows.length === 0) {
    return (
      <EmptyState title="The Points Table appears when the first matches are played.">{rules}</EmptyState>
    )
  }
  // The columns that decide the order come first, so a phone shows them beside the team unscrolled.
  const deciding = swiss ? [col.points, col.buchholz, col.byes] : [col.points, col.killPoints]
  const columns: Column[] = [...deciding, col.killDiff, col.played, col.won, col.lost, col.kills, col.deaths]
  return (
    <section className="league-table-wrap" aria-label="Points Table">
      <TeamsTable caption={`Points Table${data.stage === 'league' ? ' (league stage)' : ''}`} rows={data.rows} columns={columns} hint />
      {rules}
      {swiss ? (
        <p className="muted table-note">The table ranks the Swiss rounds; a top cut’s play-offs, if any, decide the champion.</p>
      ) : data.stage && data.stage !== 'league' ? null : (
        <p className="muted table-note">The table ranks the league stage; play-off matches decide the champion.</p>
      )}
    </section>
  )
}

/** A Swiss stage's standings beside its rounds, live; the last place of the top cut marked. */
export function SwissStandings({ tournament, cut }: { tournament: string; cut: number }) {
  const { data, isLoading, isError } = useStandings(tournament)
  if (isLoading) return <Spinner label="Loading the standings" />
  if (isError || !data) return <EmptyState title="The standings could not be loaded." />
  return (
    <section className="league-table-wrap swiss-standings" aria-label="Swiss standings">
      <h3>Standings</h3>
      <TeamsTable
        caption="Swiss standings"
        rows={data.rows}
        columns={[col.record, col.points, col.buchholz, col.killDiff]}
        rowClass={(i) => (cut > 0 && i === cut - 1 ? 'is-cut-line' : undefined)}
      />
      <p className="table-rules" data-testid="swiss-rules">
        {cut > 0 ? `The top ${cut} go to the play-offs. ` : 'The leader after the last round is champion. '}
        {SWISS_NOTE} {tieBreakLine(data.tie_break)}
      </p>
    </section>
  )
}

/** The top-killer race; once the season is over its leader wears the Red Cap. */
export function RedCap({ tournament, completed = false }: { tournament: string; completed?: boolean }) {
  const { data, isLoading, isError } = useRedCap(tournament)
  if (isLoading) return <Spinner label="Loading the Red Cap" />
  if (isError || !data) return <EmptyState title="The Red Cap could not be loaded." />
  if (data.rows.length === 0) {
    return (
      <EmptyState title="The Red Cap race starts with the first completed match.">
        The Red Cap goes to the player with the most kills in the tournament’s completed matches; ties go to the one
        with fewer deaths.
      </EmptyState>
    )
  }
  const leader = data.rows[0]
  return (
    <section className="league-table-wrap" aria-label="Red Cap">
      {completed ? (
        <div className="champion-banner red-cap-banner" role="status" data-red-cap={leader.user_id}>
          <FlameIcon />
          <span>
            <small>Red Cap</small>
            <strong>{leader.name}</strong>
          </span>
        </div>
      ) : null}
      <div className="table-scroll">
        <table className="league-table red-cap-table">
          <caption className="sr-only">Red Cap: players by kills</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col" className="col-name">
                Player
              </th>
              <th scope="col" className="col-name">
                Team
              </th>
              <th scope="col" title="Matches">
                M
              </th>
              <th scope="col">Kills</th>
              <th scope="col">Deaths</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((r, i) => (
              <tr key={r.user_id} data-user={r.user_id} className={i === 0 ? 'is-leader' : undefined}>
                <td>{i === 0 ? <CrownIcon /> : i + 1}</td>
                <th scope="row" className="col-name">
                  {r.name}
                </th>
                <td className="col-name">{r.team_name || `Team ${r.team}`}</td>
                <td>{r.matches}</td>
                <td className="col-points">{r.kills}</td>
                <td>{r.deaths}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="table-rules">Players by kills in completed matches; ties go to fewer deaths.</p>
    </section>
  )
}
