// A Redis that comes back empty, seen from a browser: the real server on a Redis of the test's own
// (Debian's redis-server on a free port, no persistence), a watcher of /auction in Chromium. Redis is
// killed, the organiser opens a lot meanwhile (the write needs no Redis: its event waits in the
// outbox), Redis starts again empty. The hub tells the page to resync and brings the auction's page
// in the frame: the watcher shows the lot without reading the auction again and without a reload.
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/redis-restart.test.mjs
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { join } from 'node:path'
import { launch, shoot } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, freePort, startServer, tmpDir } from './lib/server.mjs'

const databaseUrl = process.env.E2E_DATABASE_URL
const haveRedis = spawnSync('redis-server', ['--version']).status === 0
const skip = !databaseUrl
  ? 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
  : !haveRedis
    ? 'redis-server is not installed (make test installs it)'
    : false
const PASSWORD = 'Demo-Redis-2026!'
const ORGANISER = 'organiser@demo.pitlane.local'
const AUCTION = '/api/tournaments/PPL7/auction'
// E2E_SHOTS names a folder to keep the screenshot of the page after the restart in.
const shotsDir = process.env.E2E_SHOTS || join(tmpDir, 'redis-shots')

/** A redis-server of the test's own on port, without persistence: killed, it comes back empty. */
async function startRedis(port) {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  })
  for (let i = 0; i < 100; i++) {
    if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG') return child
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGKILL')
  throw new Error(`redis-server on port ${port} did not answer`)
}

const stopRedis = (child) =>
  new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve()
    child.once('exit', resolve)
    child.kill('SIGKILL')
  })

describe('Redis back empty, seen in a browser', { skip, timeout: 120_000 }, () => {
  let db
  let redis
  let redisPort
  let server
  let browser

  before(async () => {
    db = seededDatabase(new URL('/postgres', databaseUrl).toString(), 'pitlane_redis', 'auction', PASSWORD)
    redisPort = await freePort()
    redis = await startRedis(redisPort)
    server = await startServer({
      databaseUrl: db.url,
      smtpUrl: '',
      adminEmails: ORGANISER,
      extraEnv: { REDIS_URL: `redis://127.0.0.1:${redisPort}/0`, REDIS_PREFIX: 'e2e:' },
    })
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await stopRedis(redis)
    db?.drop()
  })

  it('the auction page takes its state from the resync frame and shows the lot opened while Redis was away', async () => {
    const admin = (await apiCall(server.base, 'POST', '/auth/login', { email: ORGANISER, password: PASSWORD })).token
    const before = await apiCall(server.base, 'GET', '/tournaments/PPL7/auction')
    const player = before.pool[0]

    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' })
    const page = await ctx.newPage()
    page.setDefaultTimeout(20_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    const reads = []
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === AUCTION) reads.push(Date.now())
    })
    const resyncs = []
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && payload.startsWith('{"type":"resync"')) resyncs.push(JSON.parse(payload))
      }),
    )
    await page.goto(`${server.base}/auction`)
    await page.getByRole('heading', { name: 'Teams' }).waitFor()
    await page.evaluate(() => (window.__noReload = true))
    // The subscription (with its page) is in place once the socket is open and the page has read.
    await page.waitForFunction(() => document.querySelector('[data-testid="lot-player"]') === null)
    await new Promise((r) => setTimeout(r, 1000))
    const readsBefore = reads.length

    await stopRedis(redis)
    const opened = await apiCall(server.base, 'POST', '/admin/tournaments/PPL7/auction/lots', { userId: player.user_id, basePrice: 1500 }, admin)
    assert.equal(opened.lot.status, 'open', 'the lot opens while Redis is away')
    await new Promise((r) => setTimeout(r, 1000))
    redis = await startRedis(redisPort)

    await page.waitForFunction(
      (name) => (document.querySelector('[data-testid="lot-player"]')?.textContent ?? '').includes(name),
      player.name,
      { timeout: 20_000 },
    )
    const paged = resyncs.filter((f) => f.topic === 'teams' && f.page)
    assert.ok(paged.length >= 1, `a resync of teams brought the auction's page (got ${JSON.stringify(resyncs.map((f) => Object.keys(f)))})`)
    assert.equal(paged[0].path, AUCTION)
    assert.equal(reads.length, readsBefore, 'the auction was not read again over REST')
    assert.equal(await page.evaluate(() => window.__noReload), true, 'the page was not reloaded')
    await shoot(page, shotsDir, 'auction-after-redis-restart', { fullPage: false })
    await ctx.close()
  })
})
