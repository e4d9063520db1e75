// Two seasons end to end in real browsers, one in each of the formats an organiser runs besides the
// knockout: Swiss with a top cut into play-offs, and double elimination. Against the real Go server,
// PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/formats.test.mjs
// Each season has a database and a server of its own, loaded with `seed-demo -phase registration`,
// and runs from /admin as docs/league.md tells a newcomer: the organiser opens the check-in, a
// captain checks in, the deadline moves the players who did not to the waitlist and the organiser
// promotes from it; the auction runs, is paused (the captain's page and the big screen say so, a
// bid is refused) and resumed, and the last sale is undone; in the Swiss season the organiser turns the
// nomination turns on and team A's captain nominates on their turn; in the matches phase a captain's
// substitute is approved, the format is picked and the fixtures made on /admin/matches, the
// matches are reported and confirmed over the API, and the organiser completes the season. The
// two seasons run side by side, so their check-in deadlines (kept to the minute) pass together.
// Screenshots of the bracket view at 1440 and 390 px go to FORMATS_SHOTS (default
// /tmp/formats-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { fileURLToPath } from 'node:url'
import { apiCall, startServer } from './lib/server.mjs'

const proofPng = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sk-stats.png'))

const shots = process.env.FORMATS_SHOTS || '/tmp/formats-web-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'formats-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const T = 'PPL7'
const LETTERS = 'ABCDEFGH'
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('a Swiss season and a double-elimination season in real browsers', { skip, timeout: 300_000 }, () => {
  const dbs = []
  const servers = {}
  let browser

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    for (const format of ['swiss', 'double']) {
      const db = seededDatabase(adminUrl, `formats_e2e_${format}`, 'registration', PASSWORD)
      dbs.push(db)
      // A lot runs a minute: on a busy machine the pause still lands before its countdown ends.
      servers[format] = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER, extraEnv: { AUCTION_LOT_SECONDS: '60' } })
    }
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    for (const s of Object.values(servers)) await s.stop()
    for (const db of dbs) db.drop()
  })

  /** One season on `server`: its tokens, its API and its pages. */
  async function season(server, name) {
    const login = async (email) => (await apiCall(server.base, 'POST', '/auth/login', { email, password: PASSWORD })).token
    const tokens = { admin: await login(ORGANISER), B: await login(captainEmail('B')) }
    // The other captains sign in while the check-in runs.
    const captains = async () => {
      for (const l of LETTERS) tokens[l] ??= await login(captainEmail(l))
    }
    const api = (method, path, body, who) => apiCall(server.base, method, path, body, who ? tokens[who] : undefined)
    const raw = async (method, path, body, who) => {
      const res = await fetch(`${server.base}/api${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens[who]}` },
        body: JSON.stringify(body ?? {}),
      })
      return { status: res.status, body: await res.json().catch(() => ({})) }
    }
    const open = async (path, who = null, width = 1440) => {
      const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, reducedMotion: 'reduce' })
      if (who) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), tokens[who])
      const page = await ctx.newPage()
      page.setDefaultTimeout(20_000)
      page.on('pageerror', (e) => console.error(`[${name} pageerror]`, e.message))
      await page.goto(`${server.base}${path}`)
      return page
    }
    /** Full-page shots at 1440 and at 390 px, the page put back as it was. */
    const shoot = (page, shot) => shootBothWidths(page, shots, `${name}-${shot}`)
    const proof = async (id, who) => {
      const form = new FormData()
      form.append('screenshot', new Blob([proofPng], { type: 'image/png' }), 'end.png')
      const res = await fetch(`${server.base}/api/matches/${id}/proof`, { method: 'POST', headers: { Authorization: `Bearer ${tokens[who]}` }, body: form })
      assert.equal(res.status, 201, await res.clone().text())
      return (await res.json()).screenshotId
    }
    return { api, raw, open, shoot, proof, captains, tokens }
  }

  /** The organiser opens the check-in on /admin, to the next minute at least 20 s away; team B's captain checks in. */
  async function checkIn(s) {
    const organiser = await s.open('/admin', 'admin')
    const card = organiser.getByRole('region', { name: 'Registration & check-in' })
    await card.getByTestId('admin-checkin').filter({ hasText: 'No check-in yet' }).waitFor()
    // The first whole minute at least 25 s away (the server keeps a deadline to the minute).
    const deadline = new Date(Math.ceil((Date.now() + 25_000) / 60_000) * 60_000)
    const pad = (n) => String(n).padStart(2, '0')
    await card
      .getByLabel('Deadline (your time zone)')
      .fill(`${deadline.getFullYear()}-${pad(deadline.getMonth() + 1)}-${pad(deadline.getDate())}T${pad(deadline.getHours())}:${pad(deadline.getMinutes())}`)
    await card.getByRole('button', { name: 'Open check-in' }).click()
    await card.getByTestId('admin-checkin').filter({ hasText: 'Check-in is open until' }).waitFor()
    const player = await s.open('/tournament?tab=reg', 'B')
    await player.getByRole('button', { name: 'Check in', exact: true }).click()
    await player.getByTestId('own-checkin').waitFor()
    await player.context().close()
    return { organiser, card, deadline }
  }

  /** After the deadline: the no-shows wait; the organiser promotes one on /admin and the rest over the API, then starts the auction. */
  async function toAuction(s, { organiser, card, deadline }) {
    await s.captains()
    await new Promise((r) => setTimeout(r, Math.max(0, deadline.getTime() - Date.now())))
    const list = async () => (await s.api('GET', `/tournament/registrations?tournamentName=${T}`)).players
    let waiting = []
    for (let i = 0; i < 100 && waiting.length === 0; i++) {
      waiting = (await list()).filter((p) => p.status === 'waitlisted')
      if (waiting.length === 0) await new Promise((r) => setTimeout(r, 300))
    }
    assert.ok(waiting.length >= 40, `the no-shows are on the waitlist (${waiting.length})`)
    await organiser.reload()
    await card.getByRole('button', { name: `Promote ${waiting[0].name}` }).click()
    await card.getByRole('button', { name: `Promote ${waiting[0].name}` }).waitFor({ state: 'detached' })
    // Enough for a player a team and the substitute; the rest wait.
    for (const p of waiting.slice(1, 12)) await s.api('POST', `/admin/tournaments/${T}/waitlist/${p.id}/promote`, {}, 'admin')
    // The captains keep their places without checking in: the move says so, and the organiser moves anyway.
    await organiser.getByRole('button', { name: 'Move to auction' }).click()
    await organiser.getByText(/confirmed players did not check in/).waitFor()
    await organiser.getByRole('button', { name: 'Move anyway' }).click()
    await organiser.locator('.phase-steps li[aria-current="step"]').filter({ hasText: 'Auction' }).waitFor()
  }

  /** One lot in the browsers, paused and resumed; then the undo; with `nominations`, a captain nominates on
   * their team's turn; then a player for every team over the API. */
  async function auction(s, organiser, nominations) {
    const captain = await s.open('/captain', 'A')
    const big = await s.open('/auction')
    const queue = organiser.getByRole('region', { name: 'Player queue' })
    await queue.getByRole('button', { name: /^Put up / }).first().click()
    await queue.getByRole('button', { name: 'Open lot' }).click()
    await captain.locator('.bid-btn').first().click()
    await captain.getByText(/Bid placed:/).waitFor()
    const lot = (await s.api('GET', `/tournaments/${T}/auction`)).lot

    const flow = organiser.getByRole('region', { name: 'Auction flow' })
    await flow.getByRole('button', { name: 'Pause auction' }).click()
    await flow.getByRole('button', { name: 'Resume auction' }).waitFor()
    await big.getByTestId('lot-paused').waitFor()
    await big.getByTestId('paused').waitFor()
    await captain.getByText('The auction is paused: bidding resumes').waitFor()
    const frozen = await big.getByTestId('lot-countdown').textContent()
    const refused = await s.raw('POST', `/tournaments/${T}/auction/bids`, { lotId: lot.id, amount: lot.base_price + 2 * lot.increment }, 'B')
    assert.equal(refused.status, 409)
    assert.match(refused.body.message, /paused/)
    await big.waitForTimeout(1500)
    assert.equal(await big.getByTestId('lot-countdown').textContent(), frozen, 'the countdown stays frozen while paused')
    await s.shoot(big, 'auction-paused')
    await flow.getByRole('button', { name: 'Resume auction' }).click()
    await flow.getByRole('button', { name: 'Pause auction' }).waitFor()
    await big.getByTestId('lot-paused').waitFor({ state: 'detached' })
    assert.equal((await s.raw('POST', `/tournaments/${T}/auction/bids`, { lotId: lot.id, amount: lot.base_price + 2 * lot.increment }, 'B')).status, 200)
    await s.api('POST', `/admin/tournaments/${T}/auction/lots/${lot.id}/close`, {}, 'admin')
    await big.locator('.lot-stage.is-idle').waitFor()

    // The organiser undoes that sale: team B gets its credits back, the player is in the pool again.
    await flow.getByRole('button', { name: 'Undo last sale' }).click()
    await flow.getByRole('button', { name: 'Yes, undo it' }).click()
    await organiser.getByRole('heading', { name: 'Sales (0)' }).waitFor()
    const after = await s.api('GET', `/tournaments/${T}/auction`)
    assert.ok(after.pool.some((p) => p.user_id === lot.player.user_id), 'the player is back in the pool')
    if (nominations) {
      // The captains nominate in turn: team A's turn starts at once, its captain puts a player up.
      // The box follows the server's flow: click, then wait for the answer to tick it.
      await flow.getByRole('checkbox', { name: 'Captains nominate in turn' }).click()
      await flow.getByRole('checkbox', { name: 'Captains nominate in turn', checked: true }).waitFor()
      const panel = captain.getByRole('region', { name: 'Nominate' })
      await panel.getByTestId('flow-turn').filter({ hasText: 'Your turn to nominate' }).waitFor()
      await big.getByTestId('flow-turn').filter({ hasText: 'Team A to nominate' }).waitFor()
      await s.shoot(captain, 'captain-turn')
      await panel.getByRole('button', { name: 'Nominate' }).click()
      await big.locator('.lot-stage[data-lot-id]').waitFor()
      await big.getByTestId('flow-turn').filter({ hasText: 'Team B to nominate' }).waitFor()
      const nominated = (await s.api('GET', `/tournaments/${T}/auction`)).lot
      await s.api('POST', `/admin/tournaments/${T}/auction/lots/${nominated.id}/close`, {}, 'admin')
      // On, the box stays ticked (a second click does nothing); turning off is a confirmed button.
      assert.equal(await flow.getByRole('checkbox', { name: 'Captains nominate in turn', checked: true }).isDisabled(), true)
      await flow.getByRole('button', { name: 'Turn off turns' }).click()
      await flow.getByRole('button', { name: 'Yes, turn off' }).click()
      await flow.getByRole('checkbox', { name: 'Captains nominate in turn', checked: false }).waitFor()
      await big.getByTestId('flow-turn').waitFor({ state: 'detached' })
    }
    await s.shoot(organiser, 'admin-flow')
    await captain.context().close()
    await big.context().close()

    // A player for every team over the API (fixtures need captains only; a report names two a side):
    // open, the team's bid, close.
    const { pool } = await s.api('GET', `/tournaments/${T}/auction`)
    for (const [i, letter] of [...LETTERS].entries()) {
      for (const p of pool.slice(i, i + 1)) {
        const { lot: l } = await s.api('POST', `/admin/tournaments/${T}/auction/lots`, { userId: p.user_id, basePrice: 1100 }, 'admin')
        await s.api('POST', `/tournaments/${T}/auction/bids`, { lotId: l.id, amount: 1100 }, letter)
        await s.api('POST', `/admin/tournaments/${T}/auction/lots/${l.id}/close`, {}, 'admin')
      }
    }
    // One player a team: the move lists the empty slots, and the organiser moves anyway.
    await organiser.getByRole('button', { name: 'Move to matches' }).click()
    await organiser.getByText('Team A has 4 of 5 slots empty').waitFor()
    await organiser.getByRole('button', { name: 'Move anyway' }).click()
    await organiser.locator('.phase-steps li[aria-current="step"]').filter({ hasText: 'Matches' }).waitFor()
  }

  /** Team C's captain asks for a substitute (API); the organiser approves on /admin/matches; then the fixtures in `pick`. */
  async function fixtures(s, pick) {
    const bench = await s.api('GET', `/tournaments/${T}/substitutes`)
    const signed = bench.pool[0]
    await s.api('POST', `/tournaments/${T}/substitutes`, { userId: signed.user_id }, 'C')
    const organiser = await s.open('/admin/matches', 'admin')
    const subs = organiser.getByRole('region', { name: 'Substitutes' })
    await subs.getByRole('button', { name: `Approve team C signing ${signed.name}` }).click()
    await subs.getByText('No request waits.').waitFor()
    await pick(organiser)
    await organiser.getByRole('button', { name: 'Generate fixtures' }).click()
    await organiser.getByText(/^Fixtures made: /).waitFor()
    const teams = (await s.api('GET', `/tournaments/${T}/teams`)).teams
    assert.equal(teams.find((t) => t.id === 'C').substitutes.length, 1, 'team C has its substitute')
    return organiser
  }

  /** Every match reported by its home side and confirmed by the other, round after round, until a champion. */
  async function play(s) {
    for (let n = 0; n < 60; n++) {
      const b = await s.api('GET', `/tournaments/${T}/bracket`)
      if (b.champion) return b
      const next = b.rounds.flatMap((r) => r.matches).find((m) => m.team1 && m.team2 && m.status === 'scheduled')
      assert.ok(next, 'a match to play while there is no champion')
      const m = (await s.api('GET', `/matches/${next.id}`, undefined, 'admin')).match
      const players = []
      let place = 1
      for (const side of [m.team1.id, m.team2.id]) {
        for (const p of m.members[side].slice(0, 2)) {
          players.push({ userId: p.user_id, kills: side === m.team1.id ? 20 : 8, deaths: side === m.team1.id ? 5 : 12, placement: place++ })
        }
      }
      const screenshotId = await s.proof(m.id, m.team1.id)
      await s.api('POST', `/matches/${m.id}/report`, { winner: m.team1.id, players, screenshotId }, m.team1.id)
      await s.api('POST', `/matches/${m.id}/confirm`, {}, m.team2.id)
    }
    assert.fail('no champion after 60 matches')
  }

  async function complete(s, organiser, b, shot) {
    const watcher = await s.open('/tournament?tab=bracket')
    await watcher.locator(`.champion-banner[data-champion="${b.champion.id}"]`).waitFor()
    await s.shoot(watcher, shot)
    await organiser.getByRole('button', { name: 'Complete the season' }).click()
    await organiser.getByRole('button', { name: 'Complete', exact: true }).click()
    await organiser.getByTestId('phase').filter({ hasText: 'completed' }).waitFor()
  }

  async function run(format) {
    const started = Date.now()
    const step = (what) => console.log(`${format}: ${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const s = await season(servers[format], format)
    const checkin = await checkIn(s)
    step('check-in open')
    await toAuction(s, checkin)
    step('auction')
    await auction(s, checkin.organiser, format === 'swiss')
    step('matches')
    if (format === 'swiss') {
      const organiser = await fixtures(s, async (page) => {
        await page.getByRole('radio', { name: /Swiss/ }).check()
        await page.getByRole('spinbutton', { name: 'Rounds' }).fill('3')
        await page.getByRole('combobox', { name: 'Top cut' }).selectOption('4')
      })
      step('fixtures')
      const b = await play(s)
      step('champion')
      assert.equal(b.format, 'swiss')
      assert.equal(b.rounds.filter((r) => r.stage === 'swiss').length, 3, 'three Swiss rounds')
      assert.ok(b.rounds.some((r) => r.stage === 'final'), 'play-offs with a final after the Swiss rounds')
      await complete(s, organiser, b, 'bracket-swiss')
    } else {
      const organiser = await fixtures(s, async (page) => {
        await page.getByRole('radio', { name: /Double elimination/ }).check()
      })
      step('fixtures')
      const b = await play(s)
      step('champion')
      assert.equal(b.format, 'double_elimination')
      assert.ok(b.rounds.some((r) => r.stage === 'losers' || r.bracket === 'losers'), 'a losers bracket')
      assert.ok(b.rounds.some((r) => r.stage === 'grand_final' || r.bracket === 'grand_final'), 'a grand final')
      await complete(s, organiser, b, 'bracket-double')
    }
  }

  it('plays both seasons from /admin: check-in, a paused and resumed auction with an undo, a substitute, the format, a champion', async () => {
    const started = Date.now()
    await Promise.all([run('swiss'), run('double')])
    console.log(`both seasons played in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  })
})
