// Organisers without dead ends, end to end against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/organiser.test.mjs
// Two databases of the file's own, loaded with `seed-demo`:
// - at `-phase auction` (two of five players bought a team): /admin lists the empty slots, team by team, in
//   the move's confirmation and moves only with "Move anyway"; /admin/matches makes the fixtures, where
//   "Back to auction" is not offered, resets them (a result archived, a watching bracket emptied live), and
//   then the season goes back to its auction;
// - at `-phase matches` with double-elimination fixtures made: after a round, a player is withdrawn with a
//   replacement and a team is withdrawn on /admin/matches; the rest is played over the API and the bracket
//   still reaches a champion that is not the withdrawn team, which the table marks.
// - at `-phase matches`, the organiser makes a player a co-organiser of PPL7 on /admin; the co-organiser
//   rules a PPL7 dispute on /admin/matches and is refused on PPL8.
// Screenshots at 1440 and 390 px go to ORGANISER_SHOTS (default /tmp/organiser-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'

const proofPng = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sk-stats.png'))
const shots = process.env.ORGANISER_SHOTS || '/tmp/organiser-web-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'organiser-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const T = 'PPL7'

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

/** A league at `phase` on a database and server of its own, with the organiser's token. */
async function league(prefix, phase, { playersSignIn = false } = {}) {
  const db = seededDatabase(adminUrl, prefix, phase, PASSWORD, { playersSignIn })
  const server = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER })
  const { token } = await apiCall(server.base, 'POST', '/auth/login', { email: ORGANISER, password: PASSWORD })
  const api = (method, path, body) => apiCall(server.base, method, path, body, token)
  /** A call whose refusal is looked at: its status and JSON body, whatever they are. */
  const raw = async (method, path, body) => {
    const res = await fetch(`${server.base}/api${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }
  return { db, server, token, api, raw }
}

describe('organisers without dead ends, in real browsers', { skip, timeout: 240_000 }, () => {
  let browser
  const leagues = []

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    for (const l of leagues) {
      await l.server.stop()
      l.db.drop()
    }
  })

  const open = async (l, path, token = null, width = 1440) => {
    const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, reducedMotion: 'reduce' })
    if (token) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(`${l.server.base}${path}`)
    return page
  }

  /**
   * The page as it is, at 1440 px and at 390x844 (a phone), put back as it was: the whole page, or with
   * `at`, the screen around that element.
   */
  const shoot = (page, name, opts) => shootBothWidths(page, shots, name, opts)

  it('refuses the half-bought move with the empty slots listed, forces it, resets the fixtures and goes back to the auction', async () => {
    const started = Date.now()
    const l = await league('orgauc_e2e', 'auction')
    leagues.push(l)
    const teams = (await l.api('GET', `/tournaments/${T}/teams`)).teams
    const empty = teams.filter((t) => t.captain).map((t) => `Team ${t.id} has ${5 - t.players.length} of 5 slots empty`)
    assert.ok(empty.length === 8 && teams.every((t) => t.players.length < 5), `the demo's auction leaves rosters half bought: ${empty}`)

    // Over the API: refused with the problems, unless forced (not yet).
    const refused = await l.raw('POST', `/admin/tournaments/${T}/status`, { status: 'matches' })
    assert.equal(refused.status, 409)
    assert.deepEqual(refused.body.problems, empty)

    // In the page: the move says what it leaves, and only "Move anyway" makes it.
    const organiser = await open(l, '/admin', l.token)
    await organiser.getByTestId('phase-warnings-matches').filter({ hasText: '8 things incomplete' }).waitFor()
    await organiser.getByTestId('phase-refused-registration').filter({ hasText: 'Players were bought already' }).waitFor()
    await organiser.getByRole('button', { name: 'Move to matches' }).click()
    const ask = organiser.getByRole('group', { name: `Move ${T} to its matches phase?` })
    for (const problem of empty) await ask.getByText(problem, { exact: true }).waitFor()
    assert.equal(await ask.getByRole('button', { name: 'Yes, matches' }).count(), 0, 'no plain yes for a move with problems')
    await shoot(organiser, 'move-with-problems', { at: ask })
    await ask.getByRole('button', { name: 'Move anyway' }).click()
    await organiser.locator('.phase-steps li[aria-current="step"]').filter({ hasText: 'Matches' }).waitFor()
    const audit = await l.api('GET', `/admin/audit?tournament=${T}&action=tournament.status&limit=1`)
    assert.equal(audit.entries[0].data.force, true)
    assert.deepEqual(audit.entries[0].data.problems, empty)

    // Fixtures made on /admin/matches; while they stand, "Back to auction" is not offered, and the page says why.
    const watcher = await open(l, '/tournament?tab=bracket')
    await watcher.evaluate(() => {
      window.__noReload = true
    })
    const matches = await open(l, '/admin/matches', l.token)
    await matches.getByTestId('phase').filter({ hasText: 'matches' }).waitFor()
    await matches.getByRole('radio', { name: /Double elimination/ }).check()
    await matches.getByRole('button', { name: 'Generate fixtures' }).click()
    await matches.getByText(/^Fixtures made: 14 matches/).waitFor()
    await watcher.waitForFunction(() => document.querySelectorAll('.match-card[data-match-id]').length === 14)
    await matches.getByTestId('phase-refused-auction').filter({ hasText: 'Its fixtures are made: reset them first' }).waitFor()
    assert.equal(await matches.getByRole('button', { name: 'Back to auction' }).count(), 0)

    // A result, then the reset: its button counts the result, its confirmation says it is archived.
    const first = (await l.api('GET', `/tournaments/${T}/bracket`)).rounds[0].matches[0]
    await l.api('POST', `/admin/matches/${first.id}/forfeit`, { team: first.team2.id })
    await matches.getByRole('button', { name: 'Reset fixtures (1 result)' }).click()
    const reset = matches.getByRole('group', { name: /Reset the fixtures\?/ })
    await reset.getByText(/1 match has a result: it is archived/).waitFor()
    await shoot(matches, 'reset-fixtures', { at: reset })
    await reset.getByRole('button', { name: 'Reset and archive the result' }).click()
    await matches.getByText('The fixtures are reset.').waitFor()
    await matches.getByRole('button', { name: 'Generate fixtures' }).waitFor()
    await watcher.getByText('The fixtures appear when the organisers generate them.').waitFor()
    assert.equal(await watcher.evaluate(() => window.__noReload), true, 'the bracket emptied live')
    const resets = (await l.api('GET', `/admin/tournaments/${T}/resets`)).resets
    assert.equal(resets.length, 1)
    assert.equal(resets[0].results, 1)
    assert.equal(resets[0].fixtures.find((m) => m.id === first.id).winner, first.team1.id, 'the result is archived')

    // Now the season goes back to its auction.
    await matches.getByRole('button', { name: 'Back to auction' }).click()
    await matches.getByRole('button', { name: 'Yes, auction' }).click()
    await matches.getByTestId('phase').filter({ hasText: 'auction' }).waitFor()
    assert.equal((await l.api('GET', `/tournaments/${T}`)).status, 'auction')
    console.log(`[e2e] move, reset and back took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  })

  it('withdraws a player (replaced) and a team mid-season; the rest is played and the bracket still crowns a champion', async () => {
    const started = Date.now()
    const l = await league('orgmat_e2e', 'matches')
    leagues.push(l)
    await l.api('POST', `/admin/tournaments/${T}/bracket`, { format: 'double_elimination' })
    const bracket = () => l.api('GET', `/tournaments/${T}/bracket`)
    const playable = async () => (await bracket()).rounds.flatMap((r) => r.matches).filter((m) => m.team1 && m.team2 && m.status === 'scheduled')
    const rule = (m) => l.api('POST', `/admin/matches/${m.id}/resolve`, { winner: m.team1.id })
    // The winners' first round, each won by its home side.
    for (const m of (await bracket()).rounds[0].matches) await rule(m)

    const organiser = await open(l, '/admin/matches', l.token)
    await organiser.getByTestId('phase').filter({ hasText: 'matches' }).waitFor()

    // A player drops out: withdrawn from their roster, a free player takes the slot.
    const teams = (await l.api('GET', `/tournaments/${T}/teams`)).teams
    const leaver = teams.find((t) => t.id === 'B').players[0]
    const pool = (await l.api('GET', `/tournaments/${T}/auction`)).pool
    const rosters = organiser.getByRole('region', { name: 'Rosters' })
    const row = rosters.locator(`li[data-player="${leaver.user_id}"]`)
    await row.getByRole('button', { name: 'Withdraw' }).click()
    await row.getByText(/leaves Team B and the lineups of its matches still to play/).waitFor()
    await row.getByLabel('Reason (kept in the audit log)').fill('Exams all month')
    await row.getByLabel('Replacement').selectOption(String(pool[0].user_id))
    await shoot(organiser, 'withdraw-player', { at: row })
    await row.getByRole('button', { name: `Withdraw ${leaver.name}` }).click()
    await rosters.locator(`li[data-team="B"] li[data-player="${pool[0].user_id}"]`).waitFor()
    assert.equal(await rosters.locator(`li[data-player="${leaver.user_id}"]`).count(), 0)

    // A team stops showing up: one still in the winners bracket, with a match to play.
    const next = (await playable()).find((m) => m.bracket === 'winners')
    const gone = next.team2.id
    const line = organiser.locator(`.team-admin-list li[data-team="${gone}"]`)
    await line.getByRole('button', { name: 'Withdraw' }).click()
    await line.getByText(/in the losers bracket and the grand final too/).waitFor()
    await line.getByLabel('Reason (kept in the audit log)').fill('Stopped showing up')
    await shoot(organiser, 'withdraw-team', { at: line })
    await line.getByRole('button', { name: `Withdraw team ${gone}` }).click()
    await organiser.getByText(new RegExp(`Team ${gone} is withdrawn: \\d+ match`)).waitFor()
    await line.locator('.status-withdrawn').waitFor()
    const forfeited = (await l.api('GET', `/matches/${next.id}`)).match
    assert.equal(forfeited.status, 'completed')
    assert.equal(forfeited.forfeit, true)
    assert.equal(forfeited.winner, next.team1.id)

    // The rest, played over the API: the bracket reaches its champion, never the withdrawn team.
    for (let i = 0; i < 20; i++) {
      const left = await playable()
      if (left.length === 0) break
      for (const m of left) await rule(m)
    }
    const done = await bracket()
    assert.ok(done.champion, 'a champion')
    assert.notEqual(done.champion.id, gone)
    for (const m of done.rounds.flatMap((r) => r.matches)) {
      if ((m.team1?.id === gone || m.team2?.id === gone) && m.status === 'completed' && m.forfeit) assert.notEqual(m.winner, gone)
    }
    await organiser.locator(`.champion-banner[data-champion="${done.champion.id}"]`).waitFor()
    const table = await open(l, '/tournament?tab=points')
    await table.locator(`tr[data-team="${gone}"] .status-withdrawn`).waitFor()
    await shoot(table, 'table-withdrawn', { at: table.locator(`tr[data-team="${gone}"]`) })
    await shoot(organiser, 'admin-matches-after')
    console.log(`[e2e] withdrawals and the rest of the season took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  })
  it("makes a co-organiser of PPL7, who rules PPL7's dispute and is refused on PPL8", async () => {
    const l = await league('orgstaff_e2e', 'matches', { playersSignIn: true })
    leagues.push(l)
    await l.api('POST', '/admin/tournaments', { name: 'PPL8', season: 8 })
    const helperEmail = 'player040@demo.pitlane.local'

    // The organiser finds the player and grants them PPL7.
    const organiser = await open(l, '/admin', l.token)
    const card = organiser.getByRole('region', { name: 'Co-organisers' })
    await card.getByText('Nobody helps run PPL7 yet.').waitFor()
    await card.getByLabel('Find a player').fill(helperEmail)
    await card.getByRole('button', { name: 'Search' }).click()
    await card.getByRole('button', { name: 'Make co-organiser' }).click()
    await card.getByRole('button', { name: 'Remove' }).waitFor()
    await shoot(organiser, 'co-organisers', { at: card })

    // A dispute in PPL7.
    const { token: helper } = await apiCall(l.server.base, 'POST', '/auth/login', { email: helperEmail, password: PASSWORD })
    const as = (token) => (method, path, body) => apiCall(l.server.base, method, path, body, token)
    await as(helper)('POST', `/admin/tournaments/${T}/bracket`, { format: 'single_elimination' })
    const m0 = (await l.api('GET', `/tournaments/${T}/bracket`)).rounds[0].matches.find((m) => m.team1 && m.team2)
    const captain = async (letter) => (await apiCall(l.server.base, 'POST', '/auth/login', { email: `captain.${letter.toLowerCase()}@demo.pitlane.local`, password: PASSWORD })).token
    const home = await captain(m0.team1.id)
    const away = await captain(m0.team2.id)
    const m = (await l.api('GET', `/matches/${m0.id}`)).match
    const form = new FormData()
    form.append('screenshot', new Blob([proofPng], { type: 'image/png' }), 'end.png')
    const players = [m.members[m.team1.id][1], m.members[m.team2.id][1]].map((p, i) => ({ userId: p.user_id, kills: 12 - i, deaths: 3, placement: i + 1 }))
    const proof = await (await fetch(`${l.server.base}/api/matches/${m.id}/proof`, { method: 'POST', headers: { Authorization: `Bearer ${home}` }, body: form })).json()
    await as(home)('POST', `/matches/${m.id}/report`, { winner: m.team1.id, players, screenshotId: proof.screenshotId })
    await as(away)('POST', `/matches/${m.id}/dispute`, { reason: 'Our kart crossed first.' })

    // The co-organiser rules it on /admin/matches.
    const page = await open(l, '/admin/matches', helper)
    const queued = page.locator(`.queue-item[data-match-id="${m.id}"][data-status="disputed"]`)
    await queued.getByRole('button', { name: 'Resolve' }).click()
    const ruling = queued.getByRole('form', { name: 'Rule on the result' })
    await ruling.getByRole('radio', { name: `Team ${m.team2.id}` }).check()
    await ruling.getByRole('button', { name: 'Rule: save this result' }).click()
    await page.locator(`.queue-item[data-match-id="${m.id}"][data-status="completed"]`).waitFor()
    assert.equal((await l.api('GET', `/matches/${m.id}`)).match.winner, m.team2.id)

    // PPL8 is not theirs, and the role is the organisers' to give.
    for (const [method, path, body] of [
      ['POST', '/admin/tournaments/PPL8/status', { status: 'auction', force: true }],
      ['GET', '/admin/tournaments/PPL8/status', undefined],
      ['PUT', `/admin/tournaments/${T}/staff/1`, {}],
    ]) {
      const res = await fetch(`${l.server.base}/api${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${helper}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      assert.equal(res.status, 403, `${method} ${path}`)
    }
  })
})
