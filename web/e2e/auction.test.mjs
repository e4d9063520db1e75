// The live auction end to end, against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/auction.test.mjs
// In a database of its own (made on E2E_DATABASE_URL's server, dropped after), loaded with
// `pitlane seed-demo -phase auction`: an organiser, two captains (one signing in through the
// captain modal) and a watcher of /auction. The organiser opens a lot, the captains bid against
// each other, the organiser closes it (sold); a second lot runs out with no bid (unsold). Every
// screen shows each change without a reload, and a reloaded /auction shows the same state.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { apiCall, binaryPath, startServer, webDir } from './lib/server.mjs'

const databaseUrl = process.env.E2E_DATABASE_URL
const skip = databaseUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const PASSWORD = 'Demo-Auction-2026!'
const ORGANISER = 'organiser@demo.pitlane.local'
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`
// Short lots keep the run fast; a late bid gives at least LATE_BID more seconds.
const LOT_SECONDS = 12
const LATE_BID = 8

/** A database beside E2E_DATABASE_URL's, so this test never touches what site.test.mjs uses. */
function ownDatabase(url) {
  const u = new URL(url)
  const name = `${u.pathname.replace(/^\//, '') || 'pitlane'}_auction_${process.pid}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase()
  const admin = new URL(url)
  admin.pathname = '/postgres'
  const own = new URL(url)
  own.pathname = `/${name}`
  return { name, adminUrl: admin.toString(), url: own.toString() }
}

const psql = (url, sql) => execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url, '-c', sql], { stdio: ['ignore', 'pipe', 'pipe'] })

describe('the live auction in four browsers', { skip, timeout: 180_000 }, () => {
  let db
  let server
  let browser
  const tokens = {}

  before(async () => {
    db = ownDatabase(databaseUrl)
    psql(db.adminUrl, `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`)
    psql(db.adminUrl, `CREATE DATABASE ${db.name}`)
    execFileSync(binaryPath(), ['seed-demo', '-phase', 'auction', '-password', PASSWORD], {
      cwd: resolve(webDir, '..'),
      env: { ...process.env, DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    server = await startServer({
      databaseUrl: db.url,
      smtpUrl: '',
      adminEmails: ORGANISER,
      extraEnv: {
        AUCTION_LOT_SECONDS: String(LOT_SECONDS),
        AUCTION_LATE_BID_SECONDS: String(LATE_BID),
        // The hub's history in Redis belongs to this database: a fresh one needs fresh keys (under the
        // run's prefix, which the runner clears).
        REDIS_PREFIX: `${process.env.E2E_REDIS_PREFIX ?? `pitlane-e2e-${process.pid}:`}${db.name}:`,
      },
    })
    for (const [who, email] of [['admin', ORGANISER], ['B', captainEmail('B')]]) {
      tokens[who] = (await apiCall(server.base, 'POST', '/auth/login', { email, password: PASSWORD })).token
    }
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    if (db) {
      try {
        psql(db.adminUrl, `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`)
      } catch (err) {
        console.error('[e2e] could not drop', db.name, String(err))
      }
    }
  })

  const newPage = async ({ width = 1440, height = 900, token = null } = {}) => {
    const ctx = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' })
    if (token) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
    // Every socket the page opens, so the test can cut one.
    await ctx.addInitScript(() => {
      const Native = window.WebSocket
      window.__sockets = []
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args)
          window.__sockets.push(this)
        }
      }
    })
    const page = await ctx.newPage()
    page.setDefaultTimeout(20_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    return page
  }

  /** Marks the page, so a later check can tell it was never reloaded. */
  const markLive = (page) => page.evaluate(() => (window.__noReload = true))
  const stillLive = async (page) => assert.equal(await page.evaluate(() => window.__noReload), true, 'the page was not reloaded')

  const text = (page, testId) => page.getByTestId(testId).first().innerText()
  const waitText = async (page, testId, re, options = {}) => {
    try {
      await page.waitForFunction(
        ([id, src]) => new RegExp(src).test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
        [testId, re.source],
        options,
      )
    } catch (err) {
      const now = await page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '(none)', testId)
      throw new Error(`${page.url()}: [data-testid=${testId}] never matched ${re} (it reads ${JSON.stringify(now)}): ${err.message}`, { cause: err })
    }
  }
  const boardState = (page) =>
    page.evaluate(() => {
      const pick = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.replace(/\s+/g, ' ').trim())
      return {
        purses: pick('.auction-teams [data-testid^="purse-"]'),
        rosters: pick('.auction-teams [data-testid^="roster-"]'),
        sold: pick('[data-testid="sold-list"] li'),
        unsold: pick('[data-testid="unsold-list"] li'),
      }
    })

  it('an organiser runs two lots, two captains bid, everyone sees it live, and a reload shows the same', async () => {
    const start = Date.now()
    const before = await apiCall(server.base, 'GET', '/tournaments/PPL7/auction')
    const teamA = before.teams.find((t) => t.id === 'A')
    const teamB = before.teams.find((t) => t.id === 'B')
    const [first, second] = before.pool

    // The watcher, on the big screen the whole time.
    const watcher = await newPage()
    await watcher.goto(`${server.base}/auction`)
    await watcher.getByRole('heading', { name: 'Teams' }).waitFor()
    await markLive(watcher)

    // Anyone on the tournament page: registration is closed, and the phase follows live.
    const visitor = await newPage({ width: 390, height: 844 })
    await visitor.goto(`${server.base}/tournament`)
    await visitor.getByRole('button', { name: 'Registration closed' }).waitFor()
    await visitor.locator('.page-meta', { hasText: 'Auction under way' }).waitFor()
    await markLive(visitor)

    // Captain A signs in through the captain modal and goes to the captain view.
    const capA = await newPage({ width: 1280 })
    await capA.goto(`${server.base}/tournament`)
    await capA.getByRole('button', { name: 'Sign in as Captain' }).click()
    const modal = capA.getByRole('dialog')
    await modal.getByLabel('Email').fill(captainEmail('A'))
    await modal.getByLabel('Password').fill(PASSWORD)
    await modal.getByRole('button', { name: 'Sign in as Captain' }).click()
    await modal.getByRole('link', { name: 'Go to my captain view' }).click()
    await capA.getByRole('heading', { name: /^Team A · PPLS-6.0/ }).waitFor()
    await markLive(capA)

    // Captain B (390 px: a phone) and the organiser.
    const capB = await newPage({ width: 390, height: 844, token: tokens.B })
    await capB.goto(`${server.base}/captain`)
    await capB.getByRole('heading', { name: /^Team B · PPLS-6.0/ }).waitFor()
    await markLive(capB)
    const organiser = await newPage({ token: tokens.admin })
    await organiser.goto(`${server.base}/admin`)
    await organiser.getByRole('heading', { name: 'Player queue' }).waitFor()
    await markLive(organiser)

    // Lot 1: opened from the queue at the tier's base price.
    await organiser.getByRole('button', { name: `Put up ${first.name}` }).click()
    await organiser.getByRole('button', { name: 'Open lot' }).click()
    for (const p of [watcher, capA, capB, organiser]) await waitText(p, 'lot-player', new RegExp(first.name))

    // The captains bid against each other with the buttons the page offers.
    const bidOn = async (page) => {
      const btn = page.locator('.bid-buttons .bid-btn').first()
      const label = await btn.innerText()
      const amount = Number(label.replace(/[^0-9]/g, ''))
      await btn.click()
      await page.getByText(/^Bid placed: /).waitFor()
      return amount
    }
    const a1 = await bidOn(capA)
    await waitText(capB, 'high-bid', new RegExp(a1.toLocaleString('en-GB')))
    // The leader has no button: it waits to be outbid.
    await capA.getByText('Team A holds the high bid. Wait for another team to outbid you.').waitFor()
    const b1 = await bidOn(capB)
    assert.ok(b1 > a1, 'B outbids A')
    await waitText(capA, 'high-bid', new RegExp(b1.toLocaleString('en-GB')))
    // A's "Bid placed" turns into who outbid it, as the live bid arrives.
    await capA.getByRole('alert').filter({ hasText: `Outbid by Team B: ${b1.toLocaleString('en-GB')} cr.` }).waitFor()
    // The watcher's connection drops; the bid made meanwhile is on its screen once it is back.
    await watcher.evaluate(() => window.__sockets.forEach((ws) => ws.close()))
    const a2 = await bidOn(capA)
    await waitText(watcher, 'high-bid', new RegExp(a2.toLocaleString('en-GB')))
    assert.ok(await watcher.evaluate(() => window.__sockets.length > 1), 'the watcher reconnected')
    await watcher.locator('.lot-high-team').getByText('Team A').waitFor()
    assert.equal(await watcher.locator('.bid-list li').count(), 3, 'the watcher sees the three bids')

    // The organiser closes it early: sold to team A at its last bid.
    await organiser.getByRole('button', { name: 'Close lot now' }).click()
    await organiser.getByRole('button', { name: 'Yes, close it' }).click()
    const purseA = (teamA.purse_left - a2).toLocaleString('en-GB')
    for (const p of [watcher, capA, capB, organiser]) {
      await waitText(p, 'purse-A', new RegExp(`^${purseA} cr`))
      await waitText(p, 'roster-A', new RegExp(first.name))
    }
    await waitText(watcher, 'sold-list', new RegExp(`${first.name}.*${a2.toLocaleString('en-GB')} cr`))
    assert.match(await text(capA, 'purse-A'), new RegExp(purseA))
    assert.match(await text(watcher, 'purse-B'), new RegExp(teamB.purse_left.toLocaleString('en-GB')), 'B paid nothing')

    // Lot 2: nobody bids, the countdown runs out, the player goes back to the pool unsold.
    await organiser.getByRole('button', { name: `Put up ${second.name}` }).click()
    await organiser.getByRole('button', { name: 'Open lot' }).click()
    await waitText(watcher, 'lot-player', new RegExp(second.name))
    await waitText(watcher, 'unsold-list', new RegExp(second.name), { timeout: (LOT_SECONDS + 15) * 1000 })
    await waitText(organiser, 'unsold-list', new RegExp(second.name))
    await watcher.getByText(/No player is under the hammer/).waitFor()

    for (const p of [watcher, capA, capB, organiser]) await stillLive(p)

    // A reloaded page shows what the live one shows.
    const live = await boardState(watcher)
    await watcher.reload()
    await watcher.getByRole('heading', { name: 'Teams' }).waitFor()
    await waitText(watcher, 'sold-list', new RegExp(first.name))
    const reloaded = await boardState(watcher)
    assert.deepEqual(reloaded, live)
    await markLive(watcher)

    // The audit log has both lots, and the phase moves every open page at once.
    await organiser.getByTestId('audit-list').getByText('auction.close_lot').first().waitFor()
    // Rosters are far from full: the move lists them, and the organiser moves anyway.
    await organiser.getByRole('button', { name: 'Move to matches' }).click()
    await organiser.getByText(/Team A has \d of 5 slots empty/).waitFor()
    // The move's own answer first, so that a failure says whether the move or the live page failed.
    const moved = organiser.waitForResponse((r) => r.request().method() === 'POST' && /\/status$/.test(new URL(r.url()).pathname))
    await organiser.getByRole('button', { name: 'Move anyway' }).click()
    assert.equal((await moved).status(), 200, 'the organiser moved the season to its matches')
    await waitText(watcher, 'phase', /Matches under way/)
    await visitor.locator('.page-meta', { hasText: 'Matches under way' }).waitFor()
    await stillLive(visitor)
    await stillLive(watcher)

    console.log(`[e2e] auction run took ${((Date.now() - start) / 1000).toFixed(1)} s`)
  })
})
