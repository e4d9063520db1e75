import { Suspense, useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@/lib/router'
import { useTournamentName } from '@/config/app-config'
import { Spinner } from '@/components/ui/spinner'
import { useLiveTopic } from '@/lib/live'
import { useReveal } from '@/lib/use-reveal'
import { openAuthModal, openStatsUpload } from '@/lib/window-events'
import { discordOutcomeOf, keepDiscordOutcome } from '@/features/profile/lib/discord-outcome'
import { RegisteredTeams, TeamCaptains } from '@/features/teams/components/teams-grid'
import { useRegistrations, useTournamentInfo } from '@/features/tournament/api/registrations'
import { Contenders } from '@/features/tournament/components/contenders'
import { RegisterButton } from '@/features/tournament/components/register-button'
import { seasonDates } from '@/features/tournament/lib/season'
import type { TournamentStatus } from '@/features/tournament/types'
import { HomeNow, NewestTile, NextStepTile, NowTile } from '../home/home-now'
import { HomeHero } from '../home/hero'
import { retryableLazy } from '../lazy-page'

// The live player list is far below the hero: its code (search, sort, cards) comes in a chunk of
// its own, fetched alongside the list's data rather than before the page's first render.
const RegisteredPlayers = retryableLazy(() =>
  import('@/features/tournament/components/registered-players').then((m) => ({ default: m.RegisteredPlayers })),
)
// Outside registration the hero shows the season as it stands (the auction, the matches, the
// champion): that code comes in a chunk of its own, which a visitor during registration never loads.
const SeasonNow = retryableLazy(() => import('../home/season-now'))

/** The news card about the season, as it stands. */
function seasonNews(name: string, status: TournamentStatus | undefined) {
  switch (status) {
    case 'auction':
      return { title: `${name}: the auction is on`, text: 'Registration is closed. The captains bid for the players live: watch every lot on the auction page.' }
    case 'matches':
      return { title: `${name}: the matches are on`, text: 'The teams are drafted. Follow the bracket, the Points Table and the Red Cap as results come in.' }
    case 'completed':
      return { title: `${name} is over`, text: 'The champions have the cup and the top killer the Red Cap. The whole season stays on the tournament page.' }
  }
  return {
    title: `${name} registration is open`,
    text: 'Sign up, verify your e-mail, link Discord and upload your stats screenshot. The player list below fills up live.',
  }
}

const NEWS = [
  {
    tag: 'Auction',
    title: 'Eight captains, one purse each',
    text: 'When registration closes, captains bid for players in a live auction. Every player carries a credit value from 1100 to 2200.',
  },
  {
    tag: 'Stats',
    title: 'Your stats, straight from the screenshot',
    text: 'No more typing numbers: the reader takes your level, kills, deaths, games and K/D from the in-game stats screen.',
  },
  {
    tag: 'Discord',
    title: 'The league bot knows you',
    text: 'Use !profile, !matches and !bracket in the league server to check your registration, fixtures and the bracket.',
  },
]

/** Fires openStatsUpload for ?showStatsUpload=true and clears the query without a reload. */
export function useShowStatsUploadParam() {
  useEffect(() => {
    const params = new URLSearchParams(window.location.search)
    if (params.get('showStatsUpload') !== 'true') return
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.hash}`)
    openStatsUpload()
  }, [])
}

/**
 * Back from "Link Discord" (/?discord=linked|error&message=…): keeps the outcome for the profile, clears
 * the query without a reload and opens the profile, which shows it.
 */
export function useDiscordOutcomeParam() {
  useEffect(() => {
    const outcome = discordOutcomeOf(window.location.search)
    if (!outcome) return
    keepDiscordOutcome(outcome)
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.hash}`)
    openAuthModal('login')
  }, [])
}

/**
 * The site's current season changes when one is completed (the next one open becomes current) or a
 * new one opens: the page reads which it is again, and follows it without a reload.
 */
function useCurrentSeasonLive() {
  const qc = useQueryClient()
  useLiveTopic('registrations', {
    onEvent: (ev) => {
      if (ev.event === 'tournament.status') void qc.invalidateQueries({ queryKey: ['config'] })
    },
  })
}

export default function HomeRoute() {
  const tournament = useTournamentName()
  const info = useTournamentInfo(tournament)
  const registrations = useRegistrations(tournament)
  useShowStatsUploadParam()
  useDiscordOutcomeParam()
  useReveal()
  useCurrentSeasonLive()
  const name = info.data?.display_name || tournament
  const status = info.data?.status
  const registering = !status || status === 'registration'
  const dates = info.data ? seasonDates(info.data) : ''
  useEffect(() => {
    document.title = `Pitlane · ${name} Smash Karts league`
  }, [name])
  const news = [{ tag: 'Season', ...seasonNews(name, status) }, ...NEWS]

  return (
    <>
      <article className="home">
        <HomeHero tournament={tournament} info={info.data}>
          {registering ? (
            <div className="hero-actions">
              <RegisterButton tournament={tournament} className="btn btn-primary btn-lg" />
              <button type="button" className="btn btn-ghost btn-lg" onClick={() => openStatsUpload()}>
                Upload SK stats
              </button>
            </div>
          ) : (
            <Suspense fallback={null}>
              <SeasonNow tournament={tournament} display={name} status={status} />
            </Suspense>
          )}
          {registering && registrations.data ? (
            <p className="hero-meta">
              <span className="live-dot" aria-hidden="true" /> <strong>{registrations.data.count}</strong>{' '}
              {registrations.data.count === 1 ? 'player' : 'players'} registered
              {info.data ? ' · registration open' : ''}
              {dates ? ` · ${dates}` : ''}
            </p>
          ) : dates ? (
            <p className="hero-meta">{dates}</p>
          ) : null}
          {registering && info.data && registrations.data ? (
            // What is happening, in the first screen: the newest players, what comes next, the visitor's
            // own step; with the count above, once the list has come (nothing then moves).
            <HomeNow>
              <NewestTile players={registrations.data.players} count={registrations.data.count} />
              <NowTile kicker="Next up" testId="now-next">
                <p className="now-line">
                  <strong>The auction</strong>: once registration closes, eight captains bid for the players live.
                </p>
              </NowTile>
              <NextStepTile tournament={tournament} phase={status} display={name} />
            </HomeNow>
          ) : null}
        </HomeHero>

        <section id="tournament" className="section reveal" aria-labelledby="contenders-title">
          <div className="section-head">
            <h2 id="contenders-title">Contenders</h2>
            <Link to="/tournament" className="section-link">
              Tournament page →
            </Link>
          </div>
          <p className="section-sub">The sharpest drivers registered so far, by K/D.</p>
          <Contenders tournament={tournament} />
          <div className="split">
            <div>
              <h3 className="sub-title">Team captains</h3>
              <TeamCaptains tournament={tournament} />
            </div>
            <div>
              <h3 className="sub-title">Registered teams</h3>
              <RegisteredTeams tournament={tournament} />
            </div>
          </div>
        </section>

        <section id="news" className="section reveal" aria-labelledby="news-title">
          <h2 id="news-title">News</h2>
          <div className="news-grid">
            {news.map((n) => (
              <article key={n.title} className="news-card">
                <span className="news-tag">{n.tag}</span>
                <h3>{n.title}</h3>
                <p>{n.text}</p>
              </article>
            ))}
          </div>
        </section>
      </article>

      <section id="players" className="section" aria-labelledby="players-title">
        <div className="section-head">
          <h2 id="players-title">Registered players</h2>
          <span className="live-pill">
            <span className="dot" aria-hidden="true" /> Live
          </span>
        </div>
        <Suspense fallback={<Spinner label="Loading players" />}>
          <RegisteredPlayers tournament={tournament} limit={12} />
        </Suspense>
        <p className="see-all">
          <Link to="/tournament?tab=reg" className="section-link">
            See every registered player →
          </Link>
        </p>
      </section>

      <aside className="section info-block" aria-label="Help and policies">
        <section id="help" aria-labelledby="help-title">
          <h2 id="help-title">Help</h2>
          <ol className="help-steps">
            <li>
              <strong>Sign up</strong> with e-mail and password (or Google) and enter the 6-digit code we e-mail you.
            </li>
            <li>
              <strong>Link Discord</strong>: your username on the league server.
            </li>
            <li>
              <strong>Upload your stats</strong>: a screenshot of the Smash Karts stats screen.
            </li>
            <li>
              <strong>Register</strong> for {name}. You can unregister while registration is open.
            </li>
          </ol>
          <p className="muted">Stuck? Ask in #help on the PPL Discord server.</p>
        </section>
        <section id="privacy" aria-labelledby="privacy-title">
          <h2 id="privacy-title">Privacy</h2>
          <p>
            We keep your e-mail, Discord username and the stats you upload to run the league. Your e-mail is never shown
            publicly; the player list shows your name, picture and stats only. Unregistering removes you from the list.
            Your profile downloads a copy of everything we hold about you, and deletes your account: your personal data
            goes at once, and the league’s results stay under “Deleted player”.
          </p>
        </section>
        <section id="terms" aria-labelledby="terms-title">
          <h2 id="terms-title">Terms</h2>
          <p>
            One account per player. Upload only screenshots of your own account. Captains and admins may remove entries
            that break fair play. Disputes about results are settled by the league admins.
          </p>
        </section>
      </aside>
    </>
  )
}
