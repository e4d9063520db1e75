// The organisers' dashboard end to end against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/metrics.test.mjs
// A database of its own loaded with `seed-demo -phase registration` (60 registered players), a server
// measuring every page load (RUM_SAMPLE_RATE=1) and one sign-up left unverified through the API. A
// browser loads three pages (/, /tournament, /contact): each sends its web-vitals with sendBeacon as it
// is left, and no request of the beacon's comes before the page's first paint. The organiser's
// /admin/metrics then shows those pages' timings and the funnel (60 registered, one stopped before
// verifying), and the deck's goals slide shows the figures.
// Screenshots at 1440 and 390 px go to METRICS_SHOTS (default /tmp/metrics-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'

const shots = process.env.METRICS_SHOTS || '/tmp/metrics-web-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'metrics-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const PAGES = ['/', '/tournament', '/contact']

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('the organisers dashboard in a real browser', { skip, timeout: 90_000 }, () => {
  let db
  let server
  let browser
  let token

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    db = seededDatabase(adminUrl, 'metrics_e2e', 'registration', PASSWORD)
    server = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER, extraEnv: { RUM_SAMPLE_RATE: '1' } })
    browser = await launch()
    token = (await apiCall(server.base, 'POST', '/auth/login', { email: ORGANISER, password: PASSWORD })).token
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    db?.drop()
  })

  const dashboard = () => apiCall(server.base, 'GET', '/admin/metrics?since=hour', undefined, token)

  it('three page loads leave their timings, which /admin/metrics shows with the funnel', async () => {
    // A sign-up that stops before its code.
    await apiCall(server.base, 'POST', '/auth/signup', {
      email: 'stopped@example.com',
      password: 'kart-racer-42',
      confirmPassword: 'kart-racer-42',
      discordUsername: 'stopped_early',
    })

    // The installable site's service worker takes over pages as they are left: not what this test reads.
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce', serviceWorkers: 'block' })
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await visit(page, PAGES)
    await page.goto('about:blank') // /contact is left too

    // Each page's beacons (sent as it was left; the server refuses any that is not a known page
    // pattern with known metrics) are kept under its pattern. A beacon is the browser's to send as
    // a page goes, best effort: a page whose timings did not come is loaded and left once more.
    let d
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 40; i++) {
        d = await dashboard()
        if (PAGES.every((p) => d.rum[p]?.ttfb_n >= 1)) break
        await new Promise((r) => setTimeout(r, 250))
      }
      const missing = PAGES.filter((p) => !(d.rum[p]?.ttfb_n >= 1))
      if (missing.length === 0 || round === 1) break
      console.error(`[metrics] timings of ${missing.join(', ')} did not come; loading them again`)
      await visit(page, missing)
      await page.goto('about:blank')
    }
    await ctx.close() // once the last beacon is in: a closed browser sends nothing more
    for (const p of PAGES) assert.ok(d.rum[p]?.ttfb_p75_ms > 0, `${p} timings kept: ${JSON.stringify(d.rum)}`)
    assert.ok(PAGES.some((p) => d.rum[p]?.lcp_p75_ms > 0), `an LCP kept: ${JSON.stringify(d.rum)}`)
    await theOrganisersPage()
  })

  /** Loads each path and waits until its timings are measured (never before the first paint). */
  async function visit(page, paths) {
    for (const path of paths) {
      await page.goto(`${server.base}${path}`)
      // The timings' code comes after the load, painted and idle: never before the first paint.
      const order = await page.waitForFunction(() => {
        const vitals = performance.getEntriesByType('resource').find((e) => /web-vitals/.test(e.name))
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]
        return vitals && fcp ? { vitals: vitals.startTime, fcp: fcp.startTime, load: performance.getEntriesByType('navigation')[0].loadEventEnd } : null
      })
      const t = await order.jsonValue()
      assert.ok(t.vitals > t.fcp && t.vitals >= t.load, `${path}: web-vitals fetched at ${t.vitals} ms, first paint at ${t.fcp}, load at ${t.load}`)
      // web-vitals' observers are listening (lib/rum.ts marks it), then take the buffered entries.
      await page.waitForFunction(() => performance.getEntriesByName('rum:listening').length > 0)
      await page.waitForTimeout(300)
    }
  }

  async function theOrganisersPage() {
    // The organiser's page.
    const admin = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' })
    await admin.addInitScript((t) => window.localStorage.setItem('token', t), token)
    const org = await admin.newPage()
    org.setDefaultTimeout(15_000)
    org.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await org.goto(`${server.base}/admin/metrics`)
    await org.getByRole('button', { name: 'Last hour' }).click()
    const table = org.getByTestId('rum-table')
    for (const p of PAGES) await table.getByRole('rowheader', { name: p, exact: true }).waitFor()
    await org.getByTestId('funnel-registered').filter({ hasText: /Registered\s*60/ }).waitFor()
    await org.getByTestId('stuck-verified').filter({ hasText: /1\s*before “E-mail verified”/ }).waitFor()
    await org.getByTestId('target-participants').filter({ hasText: '60' }).waitFor()
    assert.match(await org.getByTestId('target-participants').getAttribute('class'), /\bmet\b/, '60 participants meet the goal of 32')
    await org.getByTestId('stuck-verified').click()
    await org.getByText('stopped_early').waitFor()
    assert.equal(await org.getByText('stopped@example.com').count(), 0, 'no e-mail address on the page')
    await shoot(org, 'admin-metrics')

    // The deck's goals slide reads the same figures.
    await org.goto(`${server.base}/ppt`)
    await org.getByRole('button', { name: /Go to slide 9/ }).click()
    await org.getByTestId('goal-participants').filter({ hasText: 'now 60 ✓' }).waitFor()
    await shoot(org, 'deck-goals')
    await admin.close()
  }

  /** Full-page shots at 1440 and at 390 px, the page put back as it was. */
  const shoot = (page, name) => shootBothWidths(page, shots, name)
})
