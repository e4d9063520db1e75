// Pages that follow the league's phase, end to end against the real Go server, PostgreSQL and Debian's
// Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/phase-pages.test.mjs
// Two databases of its own (dropped after), loaded by `pitlane seed-demo` at the auction and at the
// matches phase (with a single-elimination bracket, one match ruled). During a live lot the captain's
// first Bid button lies inside the viewport on a phone (390x844, 360x640) and a desktop (1440x900); at the
// matches phase /captain shows no bid panel, /auction no "Live", the profile no Unregister, a signed-in
// player no "Sign in as Captain", and a bracket card both teams' kills; Chromium finds the site
// installable. Issue 43's rest too: a match is "Live" from its time or both check-ins (the API's
// status and the pages), never from the room; a profile whose stats lack Games played is asked for
// them again at sign-in, the review being the save; push never names the server's keys; "Move to
// completed" waits for a champion; the lot card's "Checked in" tag shows whole; the overlays wear the
// site's team badge and the standings' panels one height; a double elimination on a phone says it
// scrolls sideways. E2E_SHOTS names a folder to keep the screenshots in (else e2e/.tmp/phase-shots);
// each is looked at (shootBothWidths: 1440 and 390 px).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, chromiumPath, launch, shootBothWidths } from './lib/browser.mjs'
import { psql } from './lib/db.mjs'
import { apiCall, binaryPath, startServer, tmpDir, webDir } from './lib/server.mjs'

const databaseUrl = process.env.E2E_DATABASE_URL
const skip = databaseUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const PASSWORD = 'Demo-Phases-2026!'
const ORGANISER = 'organiser@demo.pitlane.local'
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`
const shotsDir = process.env.E2E_SHOTS || join(tmpDir, 'phase-shots')
const PHONE = { width: 390, height: 844 }
const SMALL_PHONE = { width: 360, height: 640 }
const DESKTOP = { width: 1440, height: 900 }

/** A database of this file's own, loaded by `seed-demo` with `args` (`tag` tells two of one phase apart). */
async function seeded(phase, args = [], tag = phase) {
  const admin = new URL(databaseUrl)
  admin.pathname = '/postgres'
  const name = `pitlane_phases_${tag}_${process.pid}`
  const url = new URL(databaseUrl)
  url.pathname = `/${name}`
  psql(admin.toString(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  psql(admin.toString(), `CREATE DATABASE ${name}`)
  const db = { name, url: url.toString(), drop: () => psql(admin.toString(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
  await promisify(execFile)(binaryPath(), ['seed-demo', '-phase', phase, '-password', PASSWORD, '-players-sign-in', ...args], {
    cwd: resolve(webDir, '..'),
    env: { ...process.env, DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') },
  })
  return db
}

const serve = (db) =>
  startServer({
    databaseUrl: db.url,
    smtpUrl: '',
    adminEmails: ORGANISER,
    extraEnv: {
      // A lot stays open for the whole test.
      AUCTION_LOT_SECONDS: '300',
      REDIS_PREFIX: `${process.env.E2E_REDIS_PREFIX ?? `pitlane-e2e-${process.pid}:`}${db.name}:`,
    },
  })

const login = async (base, email) => (await apiCall(base, 'POST', '/auth/login', { email, password: PASSWORD })).token

describe('pages that follow the phase', { skip, timeout: 420_000 }, () => {
  const dbs = []
  const servers = {}
  let browser

  before(async () => {
    const loaded = await Promise.all([
      seeded('auction'),
      seeded('matches', ['-format', 'single_elimination']),
      seeded('matches', ['-format', 'double_elimination'], 'double'),
    ])
    dbs.push(...loaded)
    // Every player checked in before the auction, as a season with a check-in has them (the lot card's tag).
    psql(loaded[0].url, 'UPDATE registrations SET checked_in_at = now()')
    ;[servers.auction, servers.matches, servers.double] = await Promise.all(loaded.map(serve))
    browser = await launch()
    mkdirSync(shotsDir, { recursive: true })
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    for (const s of Object.values(servers)) await s.stop()
    for (const db of dbs) {
      try {
        db.drop()
      } catch (err) {
        console.error('[e2e] could not drop', db.name, String(err))
      }
    }
  })

  const newPage = async (viewport, token = null) => {
    const ctx = await browser.newContext({ viewport, reducedMotion: 'reduce', serviceWorkers: 'block' })
    if (token) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
    const page = await ctx.newPage()
    page.setDefaultTimeout(20_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    return page
  }

  const shot = (page, name) => page.screenshot({ path: join(shotsDir, `${name}-${page.viewportSize().width}.png`) })

  /** Whether the element's box lies wholly inside the viewport, as the page stands (not scrolled). */
  const inViewport = (locator) =>
    locator.evaluate((el) => {
      const r = el.getBoundingClientRect()
      return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 0
    })

  it('during a live lot the captain’s first Bid button is on screen, on a phone and a desktop', async () => {
    const { base } = servers.auction
    const admin = await login(base, ORGANISER)
    const auction = await apiCall(base, 'GET', '/tournaments/PPL7/auction')
    const player = auction.pool[0]
    await apiCall(base, 'POST', '/admin/tournaments/PPL7/auction/lots', { userId: player.user_id, basePrice: 1100 }, admin)
    const token = await login(base, captainEmail('A'))
    for (const viewport of [PHONE, SMALL_PHONE, DESKTOP]) {
      const page = await newPage(viewport, token)
      await page.goto(`${base}/captain`)
      const first = page.getByRole('button', { name: /^Bid / }).first()
      await first.waitFor()
      assert.equal(await inViewport(first), true, `${viewport.width}x${viewport.height}: the first Bid button is off screen`)
      if (viewport.width < 1100) {
        // The bar names the player and runs the countdown beside the buttons.
        const bar = page.getByTestId('bid-panel')
        assert.match(await bar.innerText(), new RegExp(player.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        assert.match(await bar.locator('.bid-now-clock').innerText(), /^\d+:\d{2}$/)
      }
      await shot(page, 'captain-live-lot')
      await page.context().close()
    }
  })

  it('the lot card shows its “✓ Checked in” tag whole', async () => {
    const { base } = servers.auction
    const page = await newPage(DESKTOP)
    await page.goto(`${base}/auction`)
    const card = page.locator('.lot-card')
    const tag = card.locator('.status-checked-in')
    await tag.waitFor()
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport)
      const [c, t] = await Promise.all([card.boundingBox(), tag.boundingBox()])
      assert.ok(t.y >= c.y && t.y + t.height <= c.y + c.height && t.x >= c.x, `${viewport.width}: the tag lies inside the card (card ${JSON.stringify(c)}, tag ${JSON.stringify(t)})`)
    }
    await shootBothWidths(page, shotsDir, 'auction-lot-checked-in', { at: card })
    await page.context().close()
  })

  it('at the matches phase the pages say the auction is over and offer nothing it refuses', async () => {
    const { base } = servers.matches
    const captain = await login(base, captainEmail('A'))
    const player = await login(base, 'player020@demo.pitlane.local')
    for (const viewport of [PHONE, DESKTOP]) {
      const cap = await newPage(viewport, captain)
      await cap.goto(`${base}/captain`)
      await cap.getByRole('heading', { name: /^Team A · PPLS-6.0/ }).waitFor()
      assert.equal(await cap.getByTestId('bid-panel').count(), 0, 'no bid panel after the auction')
      assert.equal(await cap.getByText(/under the hammer/i).count(), 0, 'no lot after the auction')
      await shot(cap, 'captain-matches')
      await cap.context().close()

      const watcher = await newPage(viewport)
      await watcher.goto(`${base}/auction`)
      await watcher.getByRole('heading', { name: 'Teams' }).waitFor()
      await watcher.getByText('Auction results').waitFor()
      const head = await watcher.locator('.page-head').innerText()
      assert.doesNotMatch(head, /live/i)
      assert.doesNotMatch(head, /still to go/)
      assert.equal(await watcher.getByText(/under the hammer/i).count(), 0, 'no lot after the auction')
      await shot(watcher, 'auction-over')
      await watcher.context().close()

      const signedIn = await newPage(viewport, player)
      await signedIn.goto(`${base}/tournament`)
      await signedIn.locator('.page-meta', { hasText: 'Matches under way' }).waitFor()
      await signedIn.locator('button.user-email').waitFor({ state: 'attached' }) // the session is read
      assert.equal(await signedIn.getByRole('button', { name: 'Sign in as Captain' }).count(), 0)
      await signedIn.evaluate(() => window.dispatchEvent(new CustomEvent('openAuthModal', { detail: { mode: 'login' } })))
      const dialog = signedIn.getByRole('dialog')
      await dialog.getByText(/Registered for PPL7/).waitFor()
      await shot(signedIn, 'profile-matches')
      assert.equal(await dialog.getByRole('button', { name: /Unregister/ }).count(), 0, 'no Unregister once registration is closed')
      await dialog.getByText(/ask an organiser to withdraw you/).waitFor()
      // Push without the server's keys: said plainly, never which keys are missing.
      await dialog.getByText('Push notifications are unavailable here for now.').waitFor()
      assert.doesNotMatch(await dialog.innerText(), /VAPID|keys configured/i)
      await shot(signedIn, 'profile-matches')
      await signedIn.context().close()
    }
  })

  it('a bracket card shows both teams’ kills', async () => {
    const { base } = servers.matches
    const admin = await login(base, ORGANISER)
    const bracket = await apiCall(base, 'GET', '/tournaments/PPL7/bracket')
    const m = bracket.rounds[0].matches.find((x) => x.team1 && x.team2)
    const full = await apiCall(base, 'GET', `/matches/${m.id}`)
    const lines = [m.team1.id, m.team2.id].flatMap((team, side) =>
      (full.match?.members ?? full.members)[team].slice(0, 4).map((p, i) => ({ userId: p.user_id, kills: side === 0 ? 5 + i : 2 + i, deaths: 3, placement: side * 4 + i + 1 })),
    )
    await apiCall(base, 'POST', `/admin/matches/${m.id}/resolve`, { winner: m.team1.id, players: lines }, admin)
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await newPage(viewport)
      await page.goto(`${base}/tournament?tab=bracket`)
      const card = page.locator(`.match-card[data-match-id="${m.id}"][data-status="completed"]`)
      await card.waitFor()
      assert.deepEqual(await card.getByTestId('side-kills').allInnerTexts(), ['26', '14'])
      await shot(page, 'bracket-kills')
      await page.context().close()
    }
  })

  it('a match is “Live” from both check-ins or its time, not from its room: in the API and on the pages', async () => {
    const { base } = servers.matches
    const admin = await login(base, ORGANISER)
    const bracket = await apiCall(base, 'GET', '/tournaments/PPL7/bracket')
    const open = bracket.rounds[0].matches.filter((x) => x.team1 && x.team2 && x.status === 'scheduled')
    const m = open[open.length - 1]
    const at = new Date(Math.ceil((Date.now() + 40 * 60_000) / 60_000) * 60_000).toISOString()
    await apiCall(base, 'POST', `/matches/${m.id}/time`, { at }, admin)
    const home = await login(base, captainEmail(m.team1.id))
    const away = await login(base, captainEmail(m.team2.id))
    await apiCall(base, 'POST', `/matches/${m.id}/room`, { room: 'PITLANE42' }, home)
    let seen = (await apiCall(base, 'GET', `/matches/${m.id}`)).match
    assert.equal(seen.status, 'scheduled', 'a room posted 40 minutes early is not Live')
    assert.equal(seen.room_set, true)
    assert.equal(Date.parse(seen.live_from), Date.parse(at))

    // The home captain's match page: one line says how the time is set.
    const page = await newPage(DESKTOP, home)
    await page.goto(`${base}/matches/${m.id}`)
    await page.getByTestId('time-flow').waitFor()
    assert.match(await page.getByTestId('time-flow').innerText(), /Proposed times/)
    // Proposals first: the home captain's direct way is folded under "Set it now".
    assert.equal(await page.getByLabel('Day and time (your time zone)').isVisible(), false)
    await page.getByRole('region', { name: 'Proposed times' }).waitFor()
    assert.equal(await page.locator('.match-status').first().getAttribute('data-status'), 'scheduled')
    await shootBothWidths(page, shotsDir, 'match-page-home-captain')
    await page.context().close()

    for (const token of [home, away]) await apiCall(base, 'POST', `/matches/${m.id}/checkin`, {}, token)
    seen = (await apiCall(base, 'GET', `/matches/${m.id}`)).match
    assert.equal(seen.status, 'live', 'both sides checked in: Live before the time')
    assert.ok(Date.parse(seen.live_from) < Date.parse(at))
    const fixtures = (await apiCall(base, 'GET', '/tournaments/PPL7/matches')).matches
    assert.equal(fixtures.find((x) => x.id === m.id).status, 'live')

    for (const viewport of [PHONE, DESKTOP]) {
      const watcher = await newPage(viewport)
      await watcher.goto(`${base}/tournament?tab=bracket`)
      const card = watcher.locator(`.match-card[data-match-id="${m.id}"]`)
      const dot = card.locator('.live-dot')
      await dot.waitFor()
      const column = card.locator('xpath=ancestor::*[contains(@class, "bracket-round")][1]')
      await card.scrollIntoViewIfNeeded()
      const [c, d, col] = await Promise.all([card.boundingBox(), dot.boundingBox(), column.boundingBox()])
      for (const box of [c, col]) {
        assert.ok(d.x >= box.x && d.x + d.width <= box.x + box.width, `${viewport.width}: the live dot lies inside its card and column`)
      }
      if (viewport === PHONE) await shootBothWidths(watcher, shotsDir, 'bracket-live', { at: card })
      // The home page's next matches: Live first, its dot inside the row.
      await watcher.goto(`${base}/`)
      const row = watcher.locator(`.next-match[data-match-id="${m.id}"]`)
      await row.locator('.live-dot').waitFor()
      await row.scrollIntoViewIfNeeded()
      const [r, rd] = await Promise.all([row.boundingBox(), row.locator('.live-dot').boundingBox()])
      assert.ok(rd.x >= r.x && rd.x + rd.width <= r.x + r.width && rd.y >= r.y && rd.y + rd.height <= r.y + r.height, `${viewport.width}: the dot inside the next match's row`)
      assert.equal(await watcher.locator('.next-match').first().getAttribute('data-match-id'), String(m.id), 'the live match comes first')
      if (viewport === PHONE) await shootBothWidths(watcher, shotsDir, 'home-next-matches-live', { at: row })
      await watcher.context().close()
    }
  })

  it('stats kept without Games played are asked for again at sign-in; the review is the save', async () => {
    const { base } = servers.matches
    const db = dbs.find((d) => d.name.includes('_matches_'))
    const email = 'player021@demo.pitlane.local'
    for (const viewport of [PHONE, DESKTOP]) {
      psql(db.url, `UPDATE stats SET games_played = 0 WHERE user_id = (SELECT id FROM users WHERE email = '${email}')`)
      const page = await newPage(viewport)
      await page.goto(`${base}/`)
      const signIn = async () => {
        await loginButton.click()
        const dialog = page.getByRole('dialog')
        await dialog.getByLabel('Email').fill(email)
        await dialog.getByLabel('Password').fill(PASSWORD)
        await dialog.getByRole('button', { name: 'Sign In' }).click()
        return dialog
      }
      const menu = page.getByRole('button', { name: /menu/i })
      // On a phone the Login button is in the menu: wait for the header to be drawn (the menu
      // button or the Login button), then open the menu if Login is not in sight.
      const loginButton = page.getByRole('banner').getByRole('button', { name: 'Login' })
      // A tap on the menu before the page is hydrated opens nothing (a loaded machine): tap
      // again while it is still closed and Login not in sight.
      const showLogin = async () => {
        await loginButton.or(menu).filter({ visible: true }).first().waitFor()
        for (let tries = 0; tries < 5 && !(await loginButton.isVisible()) && (await menu.count()); tries++) {
          if ((await menu.first().getAttribute('aria-expanded')) !== 'true') await menu.first().click()
          await loginButton.waitFor({ state: 'visible', timeout: 4000 }).catch(() => undefined)
        }
      }
      await showLogin()
      const dialog = await signIn()
      await dialog.getByRole('heading', { name: 'Saved from your screenshot' }).waitFor()
      await dialog.getByText(/did not show Games played/).waitFor()
      assert.match(await dialog.locator('.progress-steps [aria-current="step"]').innerText(), /SK stats/, 'the stats step is the current one while reviewing')
      assert.equal(await dialog.getByRole('button', { name: 'Keep as read' }).count(), 0, 'one way: the review is the save')
      if (viewport === PHONE) await shootBothWidths(page, shotsDir, 'stats-asked-again', { at: dialog.getByRole('heading', { name: 'Saved from your screenshot' }) })
      await dialog.getByLabel('Games played').fill('1234')
      await dialog.getByRole('button', { name: 'Save my stats' }).click()
      await dialog.getByRole('heading', { name: 'Saved from your screenshot' }).waitFor({ state: 'detached' })
      const token = await page.evaluate(() => window.localStorage.getItem('token'))
      const profile = await apiCall(base, 'GET', '/auth/profile', undefined, token)
      assert.equal((profile.user ?? profile).stats_data.games_played, 1234)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })

      // Complete now: the next sign-in is only a sign-in.
      await page.evaluate(() => window.localStorage.removeItem('token'))
      await page.reload()
      await showLogin()
      await signIn()
      await page.getByRole('dialog').waitFor({ state: 'detached' })
      await page.context().close()
    }
  })

  it('organisers see no "Move to completed" before a champion', async () => {
    const { base } = servers.matches
    const page = await newPage(DESKTOP, await login(base, ORGANISER))
    // The moves the server would take now, as the phase card read them.
    const verdict = page.waitForResponse((r) => r.url().endsWith('/admin/tournaments/PPL7/status') && r.ok())
    await page.goto(`${base}/admin`)
    const moves = await (await verdict).json()
    await page.getByRole('heading', { name: 'Phase' }).waitFor()
    await page.locator('.phase-steps li[aria-current="step"]').waitFor()
    assert.equal(moves.status, 'matches')
    assert.equal(moves.moves.some((m) => m.to === 'completed' && m.allowed), false, 'no champion yet: the server refuses completed')
    await page.waitForTimeout(300) // the card renders the verdict
    assert.equal(await page.getByRole('button', { name: 'Move to completed' }).count(), 0)
    await shootBothWidths(page, shotsDir, 'admin-phase-matches', { at: page.getByRole('heading', { name: 'Phase' }) })
    await page.context().close()
  })

  it('the overlays wear the site’s team badge, and the standings’ panels are of one height', async () => {
    const { base } = servers.matches
    const page = await newPage(DESKTOP)
    await page.goto(`${base}/overlay/standings`)
    const points = page.getByTestId('overlay-points')
    const redCap = page.getByTestId('overlay-redcap')
    await points.locator('tbody tr').first().waitFor()
    await redCap.waitFor()
    const [p, r] = await Promise.all([points.boundingBox(), redCap.boundingBox()])
    assert.ok(Math.abs(p.height - r.height) <= 1, `the panels' heights: ${p.height} and ${r.height}`)
    assert.ok((await points.locator('.team-badge').count()) > 0, 'the points table shows the site’s team badges')
    await shootBothWidths(page, shotsDir, 'overlay-standings')

    const bracket = await apiCall(base, 'GET', '/tournaments/PPL7/bracket')
    const m = bracket.rounds[0].matches.find((x) => x.team1 && x.team2)
    await page.goto(`${base}/overlay/match/${m.id}`)
    await page.getByTestId('overlay-match').locator('.team-badge').nth(1).waitFor()
    await shootBothWidths(page, shotsDir, 'overlay-match')
    await page.context().close()
  })

  it('a double elimination on a phone says it scrolls sideways, and lines join its rounds', async () => {
    const { base } = servers.double
    const page = await newPage(PHONE)
    await page.goto(`${base}/tournament?tab=bracket`)
    await page.locator('.match-card').first().waitFor()
    const hint = page.locator('.bracket-scroll-hint').first()
    assert.equal(await hint.isVisible(), true, 'the hint shows on a phone')
    assert.match(await hint.innerText(), /Swipe sideways/)
    const rounds = page.locator('.bracket-rounds').first()
    assert.ok(await rounds.evaluate((el) => el.scrollWidth > el.clientWidth), 'the rounds scroll sideways')
    // The joining line: a short rule drawn from each card towards the next round.
    const line = await page.locator('.bracket-round:not(:last-child) ol > li').first().evaluate((el) => {
      const after = getComputedStyle(el, '::after')
      return { content: after.content, width: parseFloat(after.width) }
    })
    assert.ok(line.content !== 'none' && line.width > 0, 'a line joins the card to the next round')
    await shootBothWidths(page, shotsDir, 'bracket-double-elimination')
    const desktop = await newPage(DESKTOP)
    await desktop.goto(`${base}/tournament?tab=bracket`)
    await desktop.locator('.match-card').first().waitFor()
    assert.equal(await desktop.locator('.bracket-scroll-hint').first().isVisible(), false, 'no hint where every round shows')
    await page.context().close()
    await desktop.context().close()
  })

  it('Chromium finds the site installable, and the shell works offline', { timeout: 60_000 }, async () => {
    const { base } = servers.matches
    // A profile of its own: Chromium never installs from an incognito context (which newContext makes).
    const profile = mkdtempSync(join(tmpDir, 'profile-'))
    const ctx = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: CHROMIUM_FLAGS, viewport: PHONE })
    const page = ctx.pages()[0] ?? (await ctx.newPage())
    await page.goto(`${base}/tournament?tab=bracket`)
    await page.locator('.match-card').first().waitFor()
    // The worker is registered after the load; once it controls the page, it has kept the shell.
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 })
    const cdp = await ctx.newCDPSession(page)
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    assert.deepEqual(installabilityErrors, [])
    const manifest = await (await fetch(`${base}/manifest.webmanifest`)).json()
    assert.ok(manifest.icons.some((i) => i.purpose === 'maskable' && i.sizes === '512x512'))

    // A reload with no network: the kept shell and the last bracket, and the page says it is offline.
    await page.reload() // the bracket read again, now under the worker
    await page.locator('.match-card').first().waitFor()
    await ctx.setOffline(true)
    // The page's own network too, so the browser says it is offline (navigator.onLine).
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    await page.reload()
    await page.getByTestId('offline-note').waitFor()
    await page.locator('.match-card').first().waitFor()
    await shot(page, 'offline-bracket')
    await ctx.close()
    rmSync(profile, { recursive: true, force: true })
  })
})
