import { phaseName, seasonName } from '@/lib/season-name'
import { seasonDates } from '../lib/season'
import type { TournamentInfo } from '../types'

export function DescriptionPanel({ info, tournament }: { info?: TournamentInfo; tournament: string }) {
  const name = seasonName(info, tournament)
  const dates = info ? seasonDates(info) : ''
  return (
    <div className="prose">
      {info?.banner_url ? <img className="season-banner" src={info.banner_url} alt={`${name}'s banner`} /> : null}
      <h2>About {name}</h2>
      {/* The line is there before the phase is known (an unseen pill holds its height), so the text
          below it does not move when the phase arrives. */}
      <p className="status-line">
        {info ? (
          <span className={`status-pill status-${info.status}`}>{phaseName(info.status)}</span>
        ) : (
          <span className="status-pill status-placeholder" aria-hidden="true">
            …
          </span>
        )}
        {dates ? <span className="season-dates-line muted"> {dates}</span> : null}
      </p>
      {info?.description ? <p className="season-description">{info.description}</p> : null}
      <p>
        The Pitlane Premier League is a community Smash Karts league. Players register with their in-game stats, eight
        captains build their teams in a live auction, and teams meet in fixtures until one lifts the cup.
      </p>
      <ol className="timeline">
        <li>
          <strong>Registration.</strong> Sign up, verify your e-mail, link Discord, upload your SK stats screenshot and
          register.
        </li>
        <li>
          <strong>Auction.</strong> Captains bid for players within their purse; each player carries a credit value from
          1100 to 2200.
        </li>
        <li>
          <strong>Matches.</strong> Team against team in eight-kart rooms; captains report results and the other side
          confirms.
        </li>
        <li>
          <strong>Awards.</strong> The Points Table crowns the champion; the Red Cap goes to the top killer.
        </li>
      </ol>
      <p className="muted">Fair play: one account per player, screenshots must be your own, and admins settle disputes.</p>
    </div>
  )
}
