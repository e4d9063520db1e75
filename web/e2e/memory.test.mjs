// A league's memory in real browsers, against the real Go server and PostgreSQL:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/memory.test.mjs
// On a database of its own loaded with `seed-demo -seasons 2` (one past season played to its
// champion, the current one open for registration): a player's page shows the season's matches
// and the stats chart, a team's page its roster and results, the header's search finds a player
// by part of the name, and a crawler's plain GET of a player's page carries og:title and an
// og:image that answers image/png. Screenshots at 390 and 1440 px go to MEMORY_SHOTS (default
// /tmp/memory-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'

const shots = process.env.MEMORY_SHOTS || '/tmp/memory-web-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const DISCORD_UA = 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'

describe("a league's memory in real browsers", { skip, timeout: 240_000 }, () => {
  let db
  let server
  let browser
  let top // the past season's top killer: { id, name }

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    db = seededDatabase(adminUrl, 'memory_e2e', 'registration', 'memory-e2e-pass', { seasons: 2 })
    server = await startServer({ databaseUrl: db.url, smtpUrl: '' })
    const board = await apiCall(server.base, 'GET', '/leaderboards/kills?limit=1')
    top = board.rows[0]
    assert.ok(top, 'the past season has a top killer')
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    db?.drop()
  })

  const open = async (path, width = 1440) => {
    const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, reducedMotion: 'reduce' })
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(`${server.base}${path}`)
    return page
  }

  const shoot = async (page, name) => {
    if (shots === 'off') return
    await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true })
  }

  it("a player's page shows the season's matches and the stats chart", async () => {
    for (const width of [1440, 390]) {
      const page = await open(`/players/${top.id}`, width)
      await page.getByRole('heading', { level: 1, name: top.name }).waitFor()
      const matches = page.getByRole('list', { name: 'Matches' }).getByRole('listitem')
      assert.ok((await matches.count()) > 0, 'no matches listed')
      assert.match(await matches.first().innerText(), /\d+ kills · \d+ deaths/)
      assert.equal(await page.locator('.stats-chart path.chart-line').count(), 3, 'kills, deaths and K/D lines')
      assert.match(await page.locator('.stats-chart figcaption').innerText(), /4 uploads/)
      assert.ok(await page.getByRole('row', { name: /PPL7-S01/ }).isVisible(), 'the past season in the seasons table')
      await shoot(page, `player-${width}`)
      await page.context().close()
    }
  })

  it("a team's page shows its captain, roster with prices and its results", async () => {
    const page = await open('/tournaments/PPL7-S01/teams/A', 390)
    await page.getByRole('heading', { level: 1, name: /Team A/ }).waitFor()
    const rows = page.locator('.records-table tbody tr')
    assert.equal(await rows.count(), 6, 'the captain and five players')
    assert.match(await rows.first().innerText(), /Captain/)
    assert.ok((await page.locator('.record-matches li').count()) > 0, 'fixtures listed')
    await shoot(page, 'team-390')
    await page.context().close()
  })

  it('the header search finds a player by part of the name', async () => {
    const part = top.name.slice(1, 5).toLowerCase()
    const page = await open('/', 1440)
    const box = page.getByRole('searchbox', { name: 'Find a player or team' })
    await box.fill(part)
    await box.press('Enter')
    await page.waitForURL(/\/search\?q=/)
    const found = page.getByRole('list', { name: 'Players found' })
    await found.getByRole('link', { name: top.name, exact: true }).click()
    await page.waitForURL(new RegExp(`/players/${top.id}$`))
    await page.getByRole('heading', { level: 1, name: top.name }).waitFor()
    await page.context().close()
  })

  it("a crawler's plain GET of a player's page has og:title and an og:image that is a PNG", async () => {
    const res = await fetch(`${server.base}/players/${top.id}`, { headers: { 'User-Agent': DISCORD_UA } })
    assert.equal(res.status, 200)
    const html = await res.text()
    assert.ok(html.includes(`<meta property="og:title" content="${top.name} · Pitlane">`), 'og:title')
    const image = html.match(/<meta property="og:image" content="([^"]+)">/)?.[1]
    assert.ok(image, 'og:image')
    const img = await fetch(`${server.base}${new URL(image).pathname}`, { headers: { 'User-Agent': DISCORD_UA } })
    assert.equal(img.status, 200)
    assert.equal(img.headers.get('content-type'), 'image/png')
    const bytes = new Uint8Array(await img.arrayBuffer())
    assert.deepEqual([...bytes.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47])
  })

  it("a player's page compares the player with another, found by name", async () => {
    const board = await apiCall(server.base, 'GET', '/leaderboards/kills?limit=2')
    const other = board.rows[1]
    const want = await apiCall(server.base, 'GET', `/players/${top.id}/versus/${other.id}`)
    const page = await open(`/players/${top.id}`, 390)
    await page.getByRole('searchbox', { name: 'Compare with another player' }).fill(other.name)
    await page.getByRole('list', { name: 'Players to compare with' }).getByRole('button', { name: other.name, exact: true }).click()
    const score = page.locator('.h2h-score')
    await score.getByRole('link', { name: other.name }).waitFor()
    assert.match(await score.innerText(), new RegExp(`${want.wins} – ${want.losses}`))
    await shoot(page, 'head-to-head-390')
    await page.context().close()
  })

  it('the league page lists the boards and the season archive', async () => {
    const page = await open('/league', 390)
    await page.getByRole('list', { name: 'Season archive' }).getByText('PPL7-S01').waitFor()
    await page.getByRole('tab', { name: 'Kills' }).click()
    await page.getByRole('list', { name: 'Leaderboard: kills' }).getByRole('link', { name: top.name, exact: true }).waitFor()
    await shoot(page, 'league-390')
    await page.context().close()
  })
})
