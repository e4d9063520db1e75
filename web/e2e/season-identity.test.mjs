// A season's own identity and the home page that follows the phase, against the real Go server,
// PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/season-identity.test.mjs
// On a database of its own loaded with `seed-demo -phase matches`, fixtures made and two of them
// timed over the API: the home page shows the bracket, the Points Table and the next matches, and
// no Register button. The organiser names the season, gives it a hero line, a description and a
// banner on /admin's Season card; a home page left open shows each change without a reload, the
// server paints the new hero in the HTML itself (a browser without JavaScript sees it), and the
// tournament page and the deck say it too.
// Screenshots at 1440 and 390 px go to SEASON_ID_SHOTS (default /tmp/season-identity-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer, tmpDir } from './lib/server.mjs'

const shots = process.env.SEASON_ID_SHOTS || '/tmp/season-identity-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'season-id-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const T = 'PPL7'

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe("a season's own identity in real browsers", { skip, timeout: 120_000 }, () => {
  let db
  let server
  let browser
  let admin
  const timed = []

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    db = seededDatabase(adminUrl, 'seasonid_e2e', 'matches', PASSWORD)
    server = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER })
    admin = (await apiCall(server.base, 'POST', '/auth/login', { email: ORGANISER, password: PASSWORD })).token
    await apiCall(server.base, 'POST', `/admin/tournaments/${T}/bracket`, { format: 'single_elimination' }, admin)
    const { rounds } = await apiCall(server.base, 'GET', `/tournaments/${T}/bracket`)
    // Two quarter-finals get a time (tonight, in two and three hours); the others wait for one.
    for (const [i, m] of rounds[0].matches.slice(0, 2).entries()) {
      const at = new Date(Date.now() + (2 + i) * 3_600_000)
      at.setSeconds(0, 0)
      await apiCall(server.base, 'POST', `/matches/${m.id}/time`, { at: at.toISOString() }, admin)
      timed.push(m)
    }
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    db?.drop()
  })

  const open = async (path, { token = null, width = 1440, javaScript = true } = {}) => {
    const ctx = await browser.newContext({
      viewport: { width, height: width > 500 ? 900 : 844 },
      reducedMotion: 'reduce',
      javaScriptEnabled: javaScript,
    })
    if (token) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) console.error('[console]', m.text())
    })
    await page.goto(`${server.base}${path}`)
    return page
  }

  /** Full-page shots at 1440 and at 390 px, the page put back as it was. */
  const shoot = (page, name) => shootBothWidths(page, shots, name)

  it('the home page follows the matches; the organiser names the season and every open page follows', async () => {
    const started = Date.now()

    // The home page during the matches: the bracket, the Points Table and the next matches, no Register.
    const home = await open('/')
    await home.getByRole('heading', { level: 1, name: 'PPLS-6.0 is back' }).waitFor()
    await home.getByRole('link', { name: 'The bracket' }).waitFor()
    assert.equal(await home.getByRole('link', { name: 'The bracket' }).getAttribute('href'), '/tournament?tab=bracket')
    assert.equal(await home.getByRole('link', { name: 'Points Table' }).getAttribute('href'), '/tournament?tab=points')
    const next = home.getByRole('region', { name: 'Next matches' })
    await next.locator(`[data-match-id="${timed[0].id}"]`).waitFor()
    const first = await next.getByRole('listitem').first().textContent()
    assert.match(first, /\(in (1 h 5\d min|2 h)\)/, `the soonest match first, with its time: ${first}`)
    assert.equal(await next.getByRole('listitem').count(), 4)
    assert.equal(await home.getByRole('button', { name: /^REGISTER$|Registration closed/ }).count(), 0, 'no Register button during the matches')
    await home.evaluate(() => {
      window.__noReload = true
    })
    await shoot(home, 'home-matches')

    // The organiser names the season on /admin's Season card.
    const organiser = await open('/admin', { token: admin })
    const card = organiser.getByRole('region', { name: 'Season', exact: true })
    await card.getByLabel('Display name').waitFor()
    assert.equal(await card.getByLabel('Display name').inputValue(), 'PPLS-6.0')
    await card.getByLabel('Display name').fill('PPL Winter Cup')
    await card.getByLabel('Hero line').fill('The Winter Cup is on')
    await card.getByLabel('Description').fill('Eight teams, one bracket, the Red Cap for the top killer.')
    await card.getByLabel('Starts').fill('2026-12-01')
    await card.getByLabel('Ends').fill('2026-12-20')
    await card.getByRole('button', { name: 'Save season' }).click()
    await card.getByText('1 Dec 2026 – 20 Dec 2026').waitFor()

    // The open home page follows, without a reload.
    await home.getByRole('heading', { level: 1, name: 'The Winter Cup is on' }).waitFor()
    await home.getByText('Smash Karts community league · PPL Winter Cup').waitFor()
    await home.getByText('Eight teams, one bracket, the Red Cap for the top killer.').waitFor()
    assert.equal(await home.evaluate(() => window.__noReload), true, 'the home page was not reloaded')

    // A banner, drawn in the browser, uploaded from the card with its preview.
    const png = await organiser.evaluate(() => {
      const c = document.createElement('canvas')
      c.width = 1200
      c.height = 300
      const g = c.getContext('2d')
      const grad = g.createLinearGradient(0, 0, 1200, 300)
      grad.addColorStop(0, '#1d3b66')
      grad.addColorStop(0.5, '#4a2f7a')
      grad.addColorStop(1, '#0b6b6d')
      g.fillStyle = grad
      g.fillRect(0, 0, 1200, 300)
      g.fillStyle = 'rgba(255,255,255,0.12)'
      for (let x = -300; x < 1200; x += 90) g.fillRect(x, 0, 30, 300)
      return c.toDataURL('image/png').split(',')[1]
    })
    mkdirSync(tmpDir, { recursive: true })
    const bannerPath = join(tmpDir, `banner-${process.pid}.png`)
    writeFileSync(bannerPath, Buffer.from(png, 'base64'))
    await card.getByLabel('Image (PNG, JPEG or WebP, at most 8 MB)').setInputFiles(bannerPath)
    await card.getByRole('button', { name: 'Upload banner' }).click()
    await card.getByRole('img', { name: "PPL Winter Cup's banner" }).waitFor()
    await home.locator('#home.has-banner img.hero-banner').waitFor()
    await shoot(organiser, 'admin-season')
    await shoot(home, 'home-identity')

    // A second home page: the server paints the new hero itself, so a browser without JavaScript shows it.
    const html = await (await fetch(`${server.base}/`)).text()
    assert.ok(html.includes('<h1 id="hero-title" class="hero-title">The Winter Cup is on</h1>'), 'the first paint has the hero')
    assert.ok(html.includes('<title>Pitlane · PPL Winter Cup Smash Karts league</title>'), 'the title names the season')
    const bare = await open('/', { javaScript: false })
    assert.equal((await bare.locator('h1#hero-title').textContent()).trim(), 'The Winter Cup is on')
    assert.equal((await bare.locator('.hero-kicker').textContent()).trim(), 'Smash Karts community league · PPL Winter Cup')

    // The tournament page and the deck say it too.
    const tournament = await open('/tournament')
    await tournament.getByRole('heading', { level: 1, name: 'PPL Winter Cup' }).waitFor()
    await tournament.getByRole('heading', { level: 2, name: 'About PPL Winter Cup' }).waitFor()
    const deck = await open('/ppt')
    await deck.locator('.slide-kicker').filter({ hasText: 'The Winter Cup is on' }).waitFor()

    const info = await apiCall(server.base, 'GET', `/tournament/info?tournamentName=${T}`)
    assert.equal(info.display_name, 'PPL Winter Cup')
    assert.match(info.banner_url, /^\/api\/images\/[0-9a-f]{64}$/)
    console.log(`season identity: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  })
})
