// The ten slides of the self-presentation (docs/site.md, "Pages"), about Pitlane as built.
import type { ReactNode } from 'react'
import { SuccessMetrics } from './success-metrics'

export type Slide = { title: string; kicker?: string; body: ReactNode }

// The first slide's kicker is the current season's hero line (the deck's `season` prop).
export const SLIDES: Slide[] = [
  {
    title: 'Pitlane',
    body: (
      <div className="slide-title-body">
        <p className="lead">The community home of the PPL Smash Karts league.</p>
        <p>Sign up · verify · link Discord · upload your stats · register · race.</p>
        <ul className="chips">
          <li>Go</li>
          <li>PostgreSQL</li>
          <li>React + Vite</li>
          <li>WebSockets</li>
          <li>Discord bot</li>
        </ul>
      </div>
    ),
  },
  {
    title: 'Project Overview',
    body: (
      <div className="two-col">
        <div>
          <h3>The problem</h3>
          <ul>
            <li>Sign-ups in spreadsheets, stats screenshots lost in DMs</li>
            <li>Captains drafting teams from out-of-date lists</li>
            <li>Results and standings typed up by hand</li>
          </ul>
        </div>
        <div>
          <h3>Pitlane</h3>
          <ul>
            <li>One site for players, captains and organisers</li>
            <li>Stats read from the in-game screenshot</li>
            <li>Every change pushed live to browsers and the Discord bot</li>
            <li>One Go binary, PostgreSQL, optional Redis fan-out</li>
          </ul>
        </div>
      </div>
    ),
  },
  {
    title: '4-Case Registration Flow',
    body: (
      <>
        <ol className="flow">
          <li>
            <b>1</b> E-mail verified <small>sign-up + 6-digit OTP, or Google</small>
          </li>
          <li>
            <b>2</b> Discord username <small>so captains and the bot find you</small>
          </li>
          <li>
            <b>3</b> SK stats upload <small>screenshot → level, K/D, kills, games</small>
          </li>
          <li>
            <b>4</b> Tournament registration <small>card appears live for everyone</small>
          </li>
        </ol>
        <p className="muted">
          Come back any time: the modal resumes at the Discord step, the stats upload, the registration, or shows the
          dashboard when all four are done.
        </p>
      </>
    ),
  },
  {
    title: 'Database Schema',
    body: (
      <div className="schema">
        <div>
          <h3>users</h3>
          <p>id, email, password_hash, google_id, google_name, discord_username, discord_verified, email_verified, role</p>
        </div>
        <div>
          <h3>stats</h3>
          <p>user_id, player_name, sk_id, level, kills, deaths, games_played, kd, cart_image_id, category, verified</p>
        </div>
        <div>
          <h3>tournaments · registrations</h3>
          <p>name, status (registration → auction → matches → completed), purse; who registered and when</p>
        </div>
        <div>
          <h3>teams · team_players</h3>
          <p>eight teams A–H, a captain, five players at 1100–2200 credits</p>
        </div>
        <div>
          <h3>matches</h3>
          <p>round_number, player1_id, player2_id, winner_id, match_data (JSON), status</p>
        </div>
        <div>
          <h3>images · badges · email_codes</h3>
          <p>images stored once by hash; Season 3 / Season 5 winner badges; hashed, expiring OTPs</p>
        </div>
      </div>
    ),
  },
  {
    title: 'API Architecture',
    body: (
      <div className="two-col">
        <div>
          <h3>REST under /api</h3>
          <ul className="mono">
            <li>POST /api/auth/signup · verify-otp · login · google-login</li>
            <li>POST /api/stats/extract · save — GET /api/stats/get</li>
            <li>POST /api/tournament/register · unregister</li>
            <li>GET /api/tournament/registrations (alias participants) · teams · info</li>
            <li>GET|POST /api/deck · POST /api/newsletter</li>
          </ul>
          <p className="muted">Errors are always {'{"message": "..."}'} with a fitting status.</p>
        </div>
        <div>
          <h3>Live hub /api/ws</h3>
          <ul>
            <li>Topics: registrations, teams, bracket, deck, captains, user</li>
            <li>Every event carries a per-topic seq</li>
            <li>Reconnect with since = last seq: replay or resync</li>
            <li>Slow clients are cut off, never slow others</li>
          </ul>
        </div>
      </div>
    ),
  },
  {
    title: 'Discord Bot Integration',
    body: (
      <div className="two-col">
        <ul className="mono commands">
          <li>!register you@example.com</li>
          <li>!profile</li>
          <li>!matches</li>
          <li>!bracket</li>
          <li>!admin &lt;command&gt;</li>
        </ul>
        <ul>
          <li>Links a Discord member to a verified Pitlane account</li>
          <li>Announces new registrations and results in the league channel</li>
          <li>Reads the same live hub as the website</li>
          <li>Admin-only commands for organisers</li>
        </ul>
      </div>
    ),
  },
  {
    title: 'UI/UX Design',
    body: (
      <>
        <ul className="swatches" aria-label="Colour palette">
          <li style={{ background: '#4A90E2', color: '#111' }}>Primary #4A90E2</li>
          <li style={{ background: '#7B68EE', color: '#111' }}>Secondary #7B68EE</li>
          <li style={{ background: '#00CED1', color: '#1A1A1A' }}>Accent #00CED1</li>
          <li style={{ background: '#1A1A1A', border: '1px solid #444' }}>Background #1A1A1A</li>
        </ul>
        <ul>
          <li>Dark theme, from 360 px phones to 1920 px screens</li>
          <li>One modal that guides the four steps and remembers where you left off</li>
          <li>Keyboard and screen-reader friendly: labels, focus trap, alt texts</li>
          <li>Lists that update live, without a reload</li>
        </ul>
      </>
    ),
  },
  {
    title: 'Security & Performance',
    body: (
      <div className="two-col">
        <div>
          <h3>Security</h3>
          <ul>
            <li>JWT (HS256) sessions, passwords hashed</li>
            <li>OTPs hashed, valid 10 minutes, 5 tries</li>
            <li>Google ID tokens verified on the server</li>
            <li>Rate limiting, CORS same-origin, no e-mails in public lists</li>
          </ul>
        </div>
        <div>
          <h3>Performance</h3>
          <ul>
            <li>Site embedded in the Go binary, routes code-split</li>
            <li>First page under 150 KB of JavaScript</li>
            <li>Images stored once, cached long</li>
            <li>Redis pub/sub to scale out instances</li>
          </ul>
        </div>
      </div>
    ),
  },
  {
    title: 'Success Metrics & Goals',
    body: <SuccessMetrics />,
  },
  {
    title: 'Future Roadmap',
    body: (
      <div className="roadmap">
        <div className="phase done">
          <h3>Phase 1 · Core ✓</h3>
          <p>Registration, Discord bot, tournament management, progress tracking</p>
        </div>
        <div className="phase">
          <h3>Phase 2</h3>
          <p>Mobile app, live streaming, analytics dashboard, social features</p>
        </div>
        <div className="phase">
          <h3>Phase 3</h3>
          <p>Multiple tournaments, team competitions, prizes and payments, sponsors</p>
        </div>
      </div>
    ),
  },
]
