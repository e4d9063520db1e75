// The league's pages on a phone, end to end against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/league-pages.test.mjs
// Two databases of this file's own, loaded by `seed-demo`: a season played to its champion
// (`-phase completed`), and a league of three seasons at its matches. At 390x844 the Points Table's
// deciding columns (Pts, KP) lie inside the screen unscrolled, with the hint that the rest scrolls
// sideways; scrolled to the bottom of a page, the back-to-top button covers nothing of the footer (its
// links and lines); /tournament's layout shifts as it loads over a phone-like network and CPU, for a
// visitor and a captain, cold and warm, at 390 and 1440, stay under web-vitals' "good" line of 0.1.
// Screenshots go to LEAGUE_SHOTS (default e2e/.tmp/league-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer, tmpDir } from './lib/server.mjs'
import { layoutShifts } from './lib/layout-shifts.mjs'

const adminUrl = process.env.E2E_DATABASE_URL
const shots = process.env.LEAGUE_SHOTS || join(tmpDir, 'league-shots')
const PASSWORD = 'league-pages-e2e'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1440, height: 900 }

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('the league’s pages on a phone', { skip, timeout: 240_000 }, () => {
  const dbs = []
  let server
  let matches
  let browser

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    dbs.push(seededDatabase(adminUrl, 'league_pages_e2e', 'completed', PASSWORD))
    dbs.push(seededDatabase(adminUrl, 'league_pages_e2e_matches', 'matches', PASSWORD, { seasons: 3 }))
    ;[server, matches] = await Promise.all(dbs.map((db) => startServer({ databaseUrl: db.url, smtpUrl: '' })))
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await matches?.stop()
    for (const db of dbs) db.drop()
  })

  const open = async (path, viewport = PHONE) => {
    const ctx = await browser.newContext({ viewport, reducedMotion: 'reduce', serviceWorkers: 'block' })
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(`${server.base}${path}`)
    return page
  }

  const shot = async (page, name) => {
    if (shots !== 'off') await page.screenshot({ path: join(shots, `${name}-${page.viewportSize().width}.png`) })
  }

  /** The element's box as it stands on the screen. */
  const box = (locator) => locator.evaluate((el) => el.getBoundingClientRect().toJSON())

  it('the Points Table shows its deciding columns on a phone without scrolling, and says the rest scrolls', async () => {
    const page = await open('/tournament?tab=points')
    const table = page.getByRole('table', { name: /Points Table/ })
    await table.waitFor()
    await table.scrollIntoViewIfNeeded()
    const first = table.locator('tbody tr').first()
    for (const head of ['Pts', 'KP']) {
      const column = await table.locator('thead th').evaluateAll((ths, h) => ths.findIndex((th) => th.textContent === h), head)
      assert.ok(column > 0, `a ${head} column`)
      for (const cell of [table.locator('thead th').nth(column), first.locator('th, td').nth(column)]) {
        const r = await box(cell)
        assert.ok(r.left >= 0 && r.right <= PHONE.width, `${head} lies inside the 390 px screen (${r.left}–${r.right})`)
      }
    }
    const hint = page.getByText('Swipe sideways for the other columns →')
    assert.ok(await hint.isVisible(), 'the hint that the table scrolls sideways')
    const scroll = await table.evaluate((t) => ({ scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth }))
    assert.ok(scroll.scroll > scroll.client, 'the other columns are there to scroll to')
    await shot(page, 'points-table')
    await page.context().close()
  })

  for (const path of ['/', '/tournament?tab=points']) {
    it(`scrolled to the bottom of ${path}, the back-to-top button covers nothing of the footer`, async () => {
      const page = await open(path)
      await page.locator('.site-footer').waitFor()
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
      await page.waitForTimeout(400) // the scroll's frame, and the button's own
      const button = page.getByRole('link', { name: 'Back to top' })
      if (await button.isVisible()) {
        // Above the footer, or not there: none of its links and lines under the button.
        const b = await box(button)
        const f = await box(page.locator('.site-footer'))
        assert.ok(b.bottom <= f.top, `the back-to-top button (${b.top}–${b.bottom}) lies over the footer (from ${f.top})`)
      }
      await shot(page, `bottom-${path === '/' ? 'home' : 'tournament'}`)
      // Half way up the page it is there again to go back up.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 3))
      await button.waitFor()
      await page.context().close()
    })
  }

  it('/tournament does not shift as it loads, for a visitor and a captain, cold and warm, on a phone and a desktop', async () => {
    const captain = (await apiCall(matches.base, 'POST', '/auth/login', { email: 'captain.a@demo.pitlane.local', password: PASSWORD })).token
    for (const [who, token] of [
      ['a visitor', null],
      ['a captain', captain],
    ]) {
      for (const viewport of [PHONE, DESKTOP]) {
        // As a browser loads it: the first time, then again with what it kept (its cache, its storage).
        const ctx = await browser.newContext({ viewport, serviceWorkers: 'block' })
        if (token) {
          // Signed in on this browser before (a page read the session), back with an empty cache.
          await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
          const earlier = await ctx.newPage()
          await earlier.goto(`${matches.base}/`)
          await earlier.locator('button.user-email').waitFor({ state: 'attached' })
          await (await ctx.newCDPSession(earlier)).send('Network.clearBrowserCache')
          await earlier.close()
        }
        for (const load of ['cold', 'warm']) {
          const { cls, shifts } = await layoutShifts(ctx, `${matches.base}/tournament`, { settle: 2500 })
          assert.ok(cls < 0.1, `${who}, ${load} load at ${viewport.width}: CLS ${cls.toFixed(3)} (${JSON.stringify(shifts)})`)
        }
        await ctx.close()
      }
    }
  })
})
