// The stream overlays end to end, against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/overlay.test.mjs
// Two databases of its own (made on E2E_DATABASE_URL's server, dropped after): one loaded with
// `pitlane seed-demo -phase auction`, where a 1920x1080 /overlay/auction follows a lot that an
// organiser opens and a captain bids on through the API; one with `-phase completed`, for
// /overlay/standings and /overlay/match/{id}. Each overlay is shot with a transparent background
// (E2E_SHOTS names a folder to keep the shots in; else e2e/.tmp) and its corners must be clear.
import assert from 'node:assert/strict'
import { execFile, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { apiCall, binaryPath, startServer, tmpDir, webDir } from './lib/server.mjs'

const databaseUrl = process.env.E2E_DATABASE_URL
const skip = databaseUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const PASSWORD = 'Demo-Overlay-2026!'
const ORGANISER = 'organiser@demo.pitlane.local'
const shotsDir = process.env.E2E_SHOTS || join(tmpDir, 'overlay-shots')
const credits = (n) => `${n.toLocaleString('en-GB')} cr`

const psql = (url, sql) => execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url, '-c', sql], { stdio: ['ignore', 'pipe', 'pipe'] })

/** A database beside E2E_DATABASE_URL's, for the demo league at `phase`. */
function ownDatabase(phase) {
  const u = new URL(databaseUrl)
  const name = `${u.pathname.replace(/^\//, '') || 'pitlane'}_overlay_${phase}_${process.pid}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase()
  const admin = new URL(databaseUrl)
  admin.pathname = '/postgres'
  const own = new URL(databaseUrl)
  own.pathname = `/${name}`
  const db = { name, adminUrl: admin.toString(), url: own.toString() }
  psql(db.adminUrl, `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`)
  psql(db.adminUrl, `CREATE DATABASE ${db.name}`)
  return db
}

/** `pitlane seed-demo -phase …` into db. */
function seed(db, phase) {
  return promisify(execFile)(binaryPath(), ['seed-demo', '-phase', phase, '-password', PASSWORD], {
    cwd: resolve(webDir, '..'),
    env: { ...process.env, DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') },
  })
}

function serve(db) {
  return startServer({
    databaseUrl: db.url,
    smtpUrl: '',
    adminEmails: ORGANISER,
    // The hub's history in Redis belongs to this database (keys under the run's prefix).
    extraEnv: { REDIS_PREFIX: `${process.env.E2E_REDIS_PREFIX ?? `pitlane-e2e-${process.pid}:`}${db.name}:` },
  })
}

describe('overlays for streams', { skip, timeout: 240_000 }, () => {
  const dbs = []
  const servers = {}
  let browser
  let blank

  before(async () => {
    // Both leagues at once: loading a season is most of this test's time.
    await Promise.all(
      ['auction', 'completed'].map(async (phase) => {
        const db = ownDatabase(phase)
        dbs.push(db)
        await seed(db, phase)
        servers[phase] = await serve(db)
      }),
    )
    browser = await launch()
    blank = await (await browser.newContext()).newPage()
    mkdirSync(shotsDir, { recursive: true })
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    for (const s of Object.values(servers)) await s.stop()
    for (const db of dbs) {
      try {
        psql(db.adminUrl, `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`)
      } catch (err) {
        console.error('[e2e] could not drop', db.name, String(err))
      }
    }
  })

  /** A browser source: 1920x1080, as OBS sizes it. */
  const source = async (url) => {
    const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(url)
    await page.getByTestId('overlay-stage').waitFor()
    return page
  }

  /** The page's own background and chrome: transparent, and none of the site's layout. */
  const assertBare = async (page) => {
    const look = await page.evaluate(() => ({
      html: getComputedStyle(document.documentElement).backgroundColor,
      body: getComputedStyle(document.body).backgroundColor,
      marked: document.documentElement.classList.contains('overlay'),
      chrome: !!document.querySelector('main#main, header, footer'),
    }))
    assert.deepEqual(look, { html: 'rgba(0, 0, 0, 0)', body: 'rgba(0, 0, 0, 0)', marked: true, chrome: false })
  }

  /**
   * Shoots the page with no background and reads pixels of the PNG back (decoded by the browser):
   * the four corners must be fully transparent, `inside` (a point on a panel) opaque.
   */
  const shootClear = async (page, name, inside) => {
    // The banner drops in: shoot it landed.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished),
      ),
    )
    const png = await page.screenshot({ omitBackground: true })
    writeFileSync(join(shotsDir, `${name}.png`), png)
    const points = [[0, 0], [1919, 0], [0, 1079], [1919, 1079], inside]
    const alpha = await blank.evaluate(
      async ([b64, pts]) => {
        const img = new Image()
        img.src = `data:image/png;base64,${b64}`
        await img.decode()
        const c = document.createElement('canvas')
        c.width = img.width
        c.height = img.height
        const g = c.getContext('2d')
        g.drawImage(img, 0, 0)
        return { size: [img.width, img.height], alpha: pts.map(([x, y]) => g.getImageData(x, y, 1, 1).data[3]) }
      },
      [png.toString('base64'), points],
    )
    assert.deepEqual(alpha.size, [1920, 1080], `${name}: the shot is 1920x1080`)
    assert.deepEqual(alpha.alpha.slice(0, 4), [0, 0, 0, 0], `${name}: the corners are transparent`)
    assert.ok(alpha.alpha[4] > 200, `${name}: the panel at ${inside} is drawn (alpha ${alpha.alpha[4]})`)
  }

  const waitText = async (page, testId, re, timeout) => {
    try {
      await page.waitForFunction(
        ([id, src]) => new RegExp(src).test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
        [testId, re.source],
        { timeout },
      )
    } catch (err) {
      const now = await page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '(none)', testId)
      throw new Error(`[data-testid=${testId}] never matched ${re} (it reads ${JSON.stringify(now)}): ${err.message}`, { cause: err })
    }
  }

  it('/overlay/auction follows a live lot in a transparent 1920x1080 page', async () => {
    const { base } = servers.auction
    const admin = (await apiCall(base, 'POST', '/auth/login', { email: ORGANISER, password: PASSWORD })).token
    const capA = (await apiCall(base, 'POST', '/auth/login', { email: 'captain.a@demo.pitlane.local', password: PASSWORD })).token
    const state = await apiCall(base, 'GET', '/tournaments/PPL7/auction')
    const teamA = state.teams.find((t) => t.id === 'A')
    const player = state.pool[0]

    const page = await source(`${base}/overlay/auction?tournament=PPL7`)
    // Idle, or still the banner of the seed's last sale (it stays `hold`, 30 s, after the hammer).
    await page.locator('[data-testid="overlay-idle"], [data-testid="overlay-banner"]').first().waitFor()
    await assertBare(page)

    // The organiser opens a lot: the overlay shows the player, untouched.
    await page.evaluate(() => (window.__noReload = true))
    const { lot } = await apiCall(base, 'POST', '/admin/tournaments/PPL7/auction/lots', { userId: player.user_id }, admin)
    let t0 = Date.now()
    await waitText(page, 'overlay-player', new RegExp(player.name), 5_000)
    const lotShownMs = Date.now() - t0
    await waitText(page, 'overlay-high-bid', new RegExp(credits(lot.base_price)), 5_000)

    // Captain A bids: the high bid and the leading team follow within a few seconds.
    const amount = lot.base_price + lot.increment
    await apiCall(base, 'POST', '/tournaments/PPL7/auction/bids', { lotId: lot.id, amount }, capA)
    t0 = Date.now()
    await waitText(page, 'overlay-high-bid', new RegExp(credits(amount)), 5_000)
    await waitText(page, 'overlay-leader', new RegExp(teamA.name || 'Team A'), 5_000)
    const bidShownMs = Date.now() - t0
    assert.equal(await page.evaluate(() => window.__noReload), true, 'followed live, never reloaded')
    console.log(`[overlay] lot shown ${lotShownMs} ms after it opened; the bid's leader ${bidShownMs} ms after the bid`)
    await shootClear(page, 'overlay-auction-lot', [960, 930])

    // The hammer falls: the sold banner.
    await apiCall(base, 'POST', `/admin/tournaments/PPL7/auction/lots/${lot.id}/close`, undefined, admin)
    await waitText(page, 'overlay-banner', /Sold/i, 5_000)
    await waitText(page, 'overlay-banner', new RegExp(player.name), 5_000)
    await shootClear(page, 'overlay-auction-sold', [960, 940])
  })

  it('/overlay/standings and /overlay/match/{id} show the season, transparent', async () => {
    const { base } = servers.completed
    const standings = await apiCall(base, 'GET', '/tournaments/PPL7/standings')
    const redCap = await apiCall(base, 'GET', '/tournaments/PPL7/red-cap')
    assert.ok(standings.rows.length > 0 && redCap.rows.length > 0, 'the season was played')

    const table = await source(`${base}/overlay/standings?tournament=PPL7&top=5`)
    await waitText(table, 'overlay-points', new RegExp(standings.rows[0].name || `Team ${standings.rows[0].team}`), 10_000)
    await waitText(table, 'overlay-redcap', new RegExp(redCap.rows[0].name), 10_000)
    assert.equal(await table.locator('[data-testid="overlay-redcap"] li').count(), Math.min(5, redCap.rows.length))
    await assertBare(table)
    await shootClear(table, 'overlay-standings', [200, 200])

    const { matches } = await apiCall(base, 'GET', '/tournaments/PPL7/matches')
    const m = matches.find((x) => x.status === 'completed' && x.report && x.team1 && x.team2)
    const kills = (letter) => m.report.players.filter((p) => p.team === letter).reduce((s, p) => s + p.kills, 0)
    const board = await source(`${base}/overlay/match/${m.id}?theme=light`)
    await waitText(board, 'overlay-status', /Completed/, 10_000)
    await waitText(board, 'overlay-score-left', new RegExp(`^${kills(m.team1.id)}$`), 5_000)
    await waitText(board, 'overlay-score-right', new RegExp(`^${kills(m.team2.id)}$`), 5_000)
    await assertBare(board)
    await shootClear(board, 'overlay-match', [960, 100])
  })
})
