// The home page's hero: the season's name, its hero line and its description (else a line for its
// phase), over its banner when it has one. The server paints the same markup before the app runs
// (internal/api/firstpaint.html, "home"), from the same data (lib/first-paint-season.ts), so
// nothing moves or changes when the app takes over: app/first-paint.test.tsx checks them against
// each other.
import type { ReactNode } from 'react'
import type { TournamentInfo, TournamentStatus } from '@/features/tournament/types'

/** The line under the hero of a season without a description, by phase (internal/api/pagedocs.go, heroLines). */
export const HERO_LINES: Record<TournamentStatus, string> = {
  registration: 'Race for one of eight teams. Register with your in-game stats, get drafted by a captain, and chase the cup and the Red Cap.',
  auction: 'Registration is closed: the captains are building their teams in a live auction.',
  matches: 'The teams are drafted and the matches are on: follow the bracket, the Points Table and the Red Cap.',
  completed: 'The season is over: the cup and the Red Cap have their winners.',
}

/** What the hero says of a season: before its data has come, its name alone. */
export function heroOf(tournament: string, info: TournamentInfo | undefined) {
  return {
    name: info?.display_name || tournament,
    hero: info?.hero ?? '',
    sub: info ? info.description || HERO_LINES[info.status] || '' : '',
    banner: info?.banner_url ?? null,
  }
}

export function HomeHero({ tournament, info, children }: { tournament: string; info: TournamentInfo | undefined; children?: ReactNode }) {
  const { name, hero, sub, banner } = heroOf(tournament, info)
  return (
    <section id="home" className={banner ? 'hero has-banner' : 'hero'} aria-labelledby="hero-title">
      {banner ? <img className="hero-banner" src={banner} alt="" aria-hidden="true" /> : null}
      <div className="hero-glow" aria-hidden="true" />
      <p className="hero-kicker">Smash Karts community league · {name}</p>
      <h1 id="hero-title" className="hero-title">
        {hero}
      </h1>
      <p className="hero-sub">{sub}</p>
      {children}
    </section>
  )
}
