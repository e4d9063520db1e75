// Pages that follow the league's phase, end to end against the real Go server, PostgreSQL and Debian's
// Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/phase-pages.test.mjs
// Two databases of its own (dropped after), loaded by `pitlane seed-demo` at the auction and at the
// matches phase (with a single-elimination bracket, one match ruled). During a live lot the captain's
// first Bid button lies inside the viewport on a phone (390x844, 360x640) and a desktop (1440x900); at the
// matches phase /captain shows no bid panel, /auction no "Live", the profile no Unregister, a signed-in
// player no "Sign in as Captain", and a bracket card both teams' kills; Chromium finds the site
// installable. E2E_SHOTS names a folder to keep the screenshots in (else e2e/.tmp/phase-shots).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, chromiumPath, launch } from './lib/browser.mjs'
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

/** A database of this file's own, loaded by `seed-demo` with `args`. */
async function seeded(phase, args = []) {
  const admin = new URL(databaseUrl)
  admin.pathname = '/postgres'
  const name = `pitlane_phases_${phase}_${process.pid}`
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

describe('pages that follow the phase', { skip, timeout: 180_000 }, () => {
  const dbs = []
  const servers = {}
  let browser

  before(async () => {
    const loaded = await Promise.all([seeded('auction'), seeded('matches', ['-format', 'single_elimination'])])
    dbs.push(...loaded)
    ;[servers.auction, servers.matches] = await Promise.all(loaded.map(serve))
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

  it('at the matches phase the pages say the auction is over and offer nothing it refuses', async () => {
    const { base } = servers.matches
    const captain = await login(base, captainEmail('A'))
    const player = await login(base, 'player020@demo.pitlane.local')
    for (const viewport of [PHONE, DESKTOP]) {
      const cap = await newPage(viewport, captain)
      await cap.goto(`${base}/captain`)
      await cap.getByRole('heading', { name: /^Team A · PPL7/ }).waitFor()
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
      await signedIn.getByText(/status: matches/).waitFor()
      await signedIn.locator('button.user-email').waitFor({ state: 'attached' }) // the session is read
      assert.equal(await signedIn.getByRole('button', { name: 'Sign in as Captain' }).count(), 0)
      await signedIn.evaluate(() => window.dispatchEvent(new CustomEvent('openAuthModal', { detail: { mode: 'login' } })))
      const dialog = signedIn.getByRole('dialog')
      await dialog.getByText(/Registered for PPL7/).waitFor()
      await shot(signedIn, 'profile-matches')
      assert.equal(await dialog.getByRole('button', { name: /Unregister/ }).count(), 0, 'no Unregister once registration is closed')
      await dialog.getByText(/ask an organiser to withdraw you/).waitFor()
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
