// What the home page shows under its hero once registration has closed, each phase its own: the
// live auction (the lot under the hammer, or what is between lots), the matches (the next ones and
// the way to the bracket and the Points Table), and a finished season's champion and Red Cap. Each
// follows the league live; the page loads this chunk only outside registration.
import { Avatar } from '@/components/ui/avatar'
import { Link } from '@/lib/router'
import { useAuction } from '@/features/auction/api/auction'
import { credits } from '@/features/auction/components/bits'
import { formatSeconds } from '@/features/auction/lib/countdown'
import { useLotCountdown } from '@/features/auction/lib/use-lot-countdown'
import type { Lot } from '@/features/auction/types'
import { useAllMatches, useBracket, useLeagueTeams, useRedCap } from '@/features/matches/api/league'
import { StatusBadge } from '@/features/matches/components/status-badge'
import { matchTime, roundTitle, teamName, teamTotals, untilMatch } from '@/features/matches/lib/match-model'
import { upcomingMatches } from '@/features/matches/lib/upcoming'
import type { Match } from '@/features/matches/types'
import type { TournamentStatus } from '@/features/tournament/types'
import { useSession } from '@/lib/auth'
import { HomeNow, NextStepTile, ResultTile, SaleTile } from './home-now'
import { latestResult, latestSale, ownNextMatch } from './pulse'

type NowProps = { tournament: string; display: string }

export default function SeasonNow({ tournament, display, status }: NowProps & { status: TournamentStatus }) {
  switch (status) {
    case 'auction':
      return <AuctionNow tournament={tournament} display={display} />
    case 'matches':
      return <MatchesNow tournament={tournament} display={display} />
    case 'completed':
      return <ChampionNow tournament={tournament} display={display} />
  }
  return null
}

/** A match to come in a line: its sides and its time. */
function matchLine(m: Match) {
  return (
    <>
      <strong>
        {teamName(m.team1)} vs {teamName(m.team2)}
      </strong>{' '}
      <span className="muted">· {m.scheduled_at ? `${matchTime(m.scheduled_at)} (${untilMatch(m.scheduled_at)})` : 'time to be agreed'}</span>
    </>
  )
}

/** A result in a line: the winner, the other side, each side's kills when reported. */
function resultLine(m: Match) {
  const winner = m.winner === m.team1?.id ? m.team1 : m.team2
  const loser = winner === m.team1 ? m.team2 : m.team1
  const totals = teamTotals(m)
  const score = totals && winner && loser ? ` · ${totals[winner.id]?.kills ?? 0}–${totals[loser.id]?.kills ?? 0} kills` : m.forfeit ? ' · W/O' : ''
  return (
    <>
      <strong>{teamName(winner)}</strong> beat {teamName(loser)}
      <span className="muted">{score}</span>
    </>
  )
}

function LotLine({ lot, offset }: { lot: Lot; offset: number }) {
  const left = useLotCountdown(lot.ends_at, offset)
  const high = lot.high_bid
  return (
    <p className="season-now-line" data-testid="home-lot">
      <span className="live-pill">
        <span className="dot" aria-hidden="true" /> Lot live
      </span>{' '}
      <strong>{lot.player.name}</strong> is under the hammer:{' '}
      {high ? (
        <>
          Team {high.team} leads with <strong>{credits(high.amount)}</strong>
        </>
      ) : (
        <>opening at {credits(lot.base_price)}</>
      )}
      {lot.paused_left_ms == null && left > 0 ? <span className="muted"> · {formatSeconds(left)} left</span> : null}
    </p>
  )
}

function AuctionNow({ tournament, display }: NowProps) {
  const { data: view } = useAuction(tournament)
  const { user } = useSession()
  // Shown whole once the auction is read: its line above the buttons would otherwise push them down.
  if (!view) return <div className="season-now" data-phase="auction" />
  const lot = view.lot && view.lot.status === 'open' ? view.lot : null
  const ownSale = user ? (view.sold.find((s) => String(s.player.user_id) === String(user.id)) ?? null) : null
  return (
    <div className="season-now" data-phase="auction">
      {view.flow?.paused ? (
        <p className="season-now-line" data-testid="home-lot">
          The auction is paused: it carries on when the organisers resume it.
        </p>
      ) : lot ? (
        <LotLine lot={lot} offset={view.offset} />
      ) : (
        <p className="season-now-line" data-testid="home-lot">
          No lot open right now: {view.sold.length} {view.sold.length === 1 ? 'player' : 'players'} sold, {view.pool.length} still in the pool.
        </p>
      )}
      <div className="hero-actions">
        <Link to="/auction" className="btn btn-primary btn-lg">
          <span className="live-dot" aria-hidden="true" /> Watch the live auction
        </Link>
        <Link to="/tournament?tab=teams" className="btn btn-ghost btn-lg">
          The teams
        </Link>
      </div>
      <HomeNow>
        <SaleTile sale={latestSale(view.sold)} credits={credits} />
        <NextStepTile tournament={tournament} phase="auction" display={display} ownSale={ownSale} />
      </HomeNow>
    </div>
  )
}

function MatchesNow({ tournament, display }: NowProps) {
  const { data: matches } = useAllMatches(tournament)
  const { user } = useSession()
  const next = upcomingMatches(matches ?? [], 4)
  const ownMatch = user ? ownNextMatch(upcomingMatches(matches ?? [], Infinity), user.id) : null
  const result = latestResult(matches)
  return (
    <div className="season-now" data-phase="matches">
      <div className="hero-actions">
        <Link to="/tournament?tab=bracket" className="btn btn-primary btn-lg">
          The bracket
        </Link>
        <Link to="/tournament?tab=points" className="btn btn-ghost btn-lg">
          Points Table
        </Link>
      </div>
      {!matches ? null : (
        // The next matches beside what just happened and the visitor's own step (one column on phones).
        <div className="matches-now">
          {next.length === 0 ? (
            <p className="season-now-line muted">
              {matches.length === 0 ? 'The fixtures are on their way: the organisers make them once the teams are final.' : 'No match waiting to be played right now.'}
            </p>
          ) : (
            <section className="next-matches" aria-labelledby="next-matches-title">
              <h2 id="next-matches-title">Next matches</h2>
              <ul>
                {next.map((m) => (
                  <li key={m.id}>
                    <Link to={`/matches/${m.id}`} className="next-match" data-match-id={m.id}>
                      <span className="next-match-sides">
                        <strong>{teamName(m.team1)}</strong> <span className="muted">vs</span> <strong>{teamName(m.team2)}</strong>
                      </span>
                      <small className="muted">
                        {roundTitle({ number: m.round_number, stage: m.stage })} ·{' '}
                        {m.scheduled_at ? `${matchTime(m.scheduled_at)} (${untilMatch(m.scheduled_at)})` : 'time to be agreed'}
                      </small>
                      <StatusBadge match={m} />
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <HomeNow>
            {result ? <ResultTile match={result} describe={resultLine} /> : null}
            <NextStepTile tournament={tournament} phase="matches" display={display} ownMatch={ownMatch} describeMatch={matchLine} />
          </HomeNow>
        </div>
      )}
    </div>
  )
}

function ChampionNow({ tournament, display }: NowProps) {
  const bracketRead = useBracket(tournament)
  const teamsRead = useLeagueTeams(tournament)
  const redCapRead = useRedCap(tournament)
  const bracket = bracketRead.data
  const teams = teamsRead.data
  const redCap = redCapRead.data
  // Shown whole once the three reads are in: an award coming later would push the rest down.
  if (bracketRead.isPending || teamsRead.isPending || redCapRead.isPending) return <div className="season-now" data-phase="completed" />
  const champion = bracket?.champion ?? null
  const team = champion ? teams?.find((t) => t.id === champion.id) : undefined
  const cap = redCap?.rows[0]
  return (
    <div className="season-now" data-phase="completed">
      <div className="season-awards">
        {champion ? (
          <section className="award award-cup" aria-labelledby="champion-title" data-testid="home-champion">
            <p className="award-kicker">Champions</p>
            <h2 id="champion-title">{teamName(champion)}</h2>
            {team?.captain ? (
              <p className="award-captain">
                <Avatar src={team.captain.image} name={team.captain.name} size={40} /> Captain <strong>{team.captain.name}</strong>
              </p>
            ) : null}
            {team?.players.length ? (
              <ul className="award-players" aria-label="Players">
                {team.players.map((p) => (
                  <li key={p.user_id}>{p.name}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ) : bracket ? (
          <p className="season-now-line muted">The season ended without a champion.</p>
        ) : null}
        {cap ? (
          <section className="award award-redcap" aria-labelledby="redcap-title" data-testid="home-redcap">
            <p className="award-kicker">Red Cap</p>
            <h2 id="redcap-title">{cap.name}</h2>
            <p className="muted">
              {cap.kills} kills in {cap.matches} {cap.matches === 1 ? 'match' : 'matches'} · {cap.team_name || `Team ${cap.team}`}
            </p>
          </section>
        ) : null}
      </div>
      <div className="hero-actions">
        <Link to={`/tournament?season=${encodeURIComponent(tournament)}&tab=bracket`} className="btn btn-primary btn-lg">
          See the season
        </Link>
      </div>
      <HomeNow>
        <NextStepTile tournament={tournament} phase="completed" display={display} />
      </HomeNow>
    </div>
  )
}
