// /overlay/standings: the points table and the Red Cap's top N (?top=), pushed whole by the server
// on every standings.updated (topic `bracket`).
import { useRedCap, useStandings } from '@/features/matches/api/league'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { TeamBadge } from '@/components/ui/team-badge'
import { OverlayFrame, useOverlayOptions } from './components/overlay-frame'

export default function StandingsOverlay() {
  const options = useOverlayOptions()
  const { data: standings } = useStandings(options.tournament)
  const { data: redCap } = useRedCap(options.tournament)
  const { data: info } = useTournamentInfo(options.tournament)
  const rows = (standings?.rows ?? []).slice(0, options.rows)
  const caps = (redCap?.rows ?? []).slice(0, options.top)
  return (
    <OverlayFrame kind="standings" options={options}>
      {/* One row: the two panels stand side by side at the height of the taller. */}
      <div className="ov-standings">
        <section className="ov-panel ov-table" aria-label="Points table" data-testid="overlay-points">
          <h2 className="ov-title">
            {info?.display_name || options.tournament} · Points table
          </h2>
          {rows.length ? (
            <table>
              <thead>
                <tr>
                  <th>#</th>
                  <th className="ov-left">Team</th>
                  <th>P</th>
                  <th>W</th>
                  <th>L</th>
                  <th>
                    <abbr title="Kill difference: kills scored less kills conceded">+/−</abbr>
                  </th>
                  <th>Pts</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.team}>
                    <td>{i + 1}</td>
                    <td className="ov-left ov-team-cell">
                      <span>
                        <TeamBadge letter={r.team} size={40} /> {r.name || `Team ${r.team}`}
                      </span>
                    </td>
                    <td>{r.played}</td>
                    <td>{r.won}</td>
                    <td>{r.lost}</td>
                    <td>{r.kill_difference > 0 ? `+${r.kill_difference}` : r.kill_difference}</td>
                    <td className="ov-points">{r.points}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="ov-sub">{standings ? 'No match played yet' : ''}</p>
          )}
          {rows.length ? <p className="ov-legend">P played · W won · L lost · +/− kill difference · Pts points</p> : null}
        </section>
        <section className="ov-panel ov-redcap" aria-label="Red Cap" data-testid="overlay-redcap">
          <h2 className="ov-title">
            <span className="ov-cap" aria-hidden="true" /> Red Cap · top {options.top}
          </h2>
          {caps.length ? (
            <ol>
              {caps.map((p) => (
                <li key={p.user_id}>
                  <span className="ov-cap-name">{p.name}</span>
                  <span className="ov-cap-team">{p.team_name || `Team ${p.team}`}</span>
                  <strong>{p.kills}</strong>
                </li>
              ))}
            </ol>
          ) : (
            <p className="ov-sub">{redCap ? 'No kills reported yet' : ''}</p>
          )}
        </section>
      </div>
    </OverlayFrame>
  )
}
