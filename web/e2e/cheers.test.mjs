// Live cheers end to end: ten pages on /auction, spread over two instances of the real Go server
// that share PostgreSQL and Redis (one instance without E2E_REDIS_URL), each tap a reaction; every
// page sees the whole audience's taps in its bursts, merged per window across the instances.
//   E2E_DATABASE_URL=postgres://… E2E_REDIS_URL=redis://… [E2E_PORTS=18301,18302] node --test e2e/cheers.test.mjs
// Shots of the bar at 390 and 1440 wide go to E2E_SHOTS (else e2e/.tmp).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { startServer, tmpDir } from './lib/server.mjs'

const databaseUrl = process.env.E2E_DATABASE_URL
const skip = databaseUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const ports = (process.env.E2E_PORTS ?? '').split(',').filter(Boolean).map(Number)
const shotsDir = process.env.E2E_SHOTS || join(tmpDir, 'cheers-shots')
const PAGES = 10

describe('live cheers on /auction', { skip, timeout: 180_000 }, () => {
  const servers = []
  let browser

  before(async () => {
    const instances = process.env.E2E_REDIS_URL ? 2 : 1
    for (let i = 0; i < instances; i++) {
      servers.push(await startServer({ databaseUrl, smtpUrl: '', port: ports[i] }))
    }
    browser = await launch()
    mkdirSync(shotsDir, { recursive: true })
  })

  after(async () => {
    await browser?.close()
    await Promise.all(servers.map((s) => s.stop()))
  })

  it('ten spectators tap and each sees every tap, whatever instance it came through', async () => {
    const pages = []
    for (let i = 0; i < PAGES; i++) {
      const ctx = await browser.newContext({ viewport: i === 0 ? { width: 390, height: 844 } : { width: 1440, height: 900 } })
      const page = await ctx.newPage()
      const frames = []
      page.on('websocket', (ws) => ws.on('framereceived', (f) => typeof f.payload === 'string' && f.payload.includes('"type":"cheers"') && frames.push(JSON.parse(f.payload))))
      await page.goto(`${servers[i % servers.length].base}/auction`)
      await page.getByTestId('cheer-bar-teams').waitFor()
      pages.push({ page, frames })
    }
    await new Promise((r) => setTimeout(r, 1500)) // every socket open and subscribed
    const t0 = Date.now()
    await Promise.all(pages.map(({ page }) => page.getByRole('button', { name: 'Fire' }).click()))
    await Promise.all(pages.slice(0, 3).map(({ page }) => page.getByRole('button', { name: 'GG' }).click()))

    const deadline = Date.now() + 5_000
    for (const [i, { frames }] of pages.entries()) {
      const sum = (kind) => frames.reduce((n, f) => n + (f.counts[kind] ?? 0), 0)
      while ((sum('fire') < PAGES || sum('gg') < 3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      assert.equal(sum('fire'), PAGES, `page ${i} counted every page's fire`)
      assert.equal(sum('gg'), 3, `page ${i} counted the three GGs`)
      const seconds = Math.max(1, (Date.now() - t0) / 1000)
      assert.ok(frames.length <= Math.ceil(seconds * 5) + 1, `page ${i}: ${frames.length} cheer frames in ${seconds} s, at most 5 a second`)
      assert.ok(frames.every((f) => f.topic === 'teams' && f.window_ms === 200))
    }
    // The bursts are drawn: a round of Wow from everyone floats up on a phone's page and a desktop's.
    await Promise.all(pages.map(({ page }) => page.getByRole('button', { name: 'Wow' }).click()))
    for (const [i, width] of [[0, 390], [1, 1440]]) {
      await pages[i].page.locator('.cheer-particle').first().waitFor({ state: 'attached', timeout: 3_000 })
      await pages[i].page.screenshot({ path: join(shotsDir, `auction-${width}.png`) })
    }
  })
})
