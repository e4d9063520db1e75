// A newcomer's path mid-season, end to end against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/newcomer.test.mjs
// A database of its own (dropped after), loaded by `pitlane seed-demo` at the matches phase. A visitor
// signs up from the header (the code read from the mail the server sent to our SMTP server), uploads
// a stats screenshot and lands on the saved stats: no Register button anywhere (the server refuses it
// in this phase), the last step marked closed, and what comes next said instead (the next season is
// not announced: follow the league). The home page, the tournament page and the profile offer no
// Register either; the home page's first screen holds the next matches and the visitor's own step,
// and its dialog and header draw no blur that each key typed would redraw.
// Offline, a page never visited shows the site's layout with a note, and the page
// once the connection is back. E2E_SHOTS names a folder to keep the screenshots in (else
// e2e/.tmp/newcomer-shots).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { launch } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { startServer, tmpDir } from './lib/server.mjs'
import { startSmtp } from './lib/smtp.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const fixture = join(here, 'fixtures', 'sk-stats.png')
const databaseUrl = process.env.E2E_DATABASE_URL
const skip = databaseUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const shotsDir = process.env.E2E_SHOTS || join(tmpDir, 'newcomer-shots')
const run = Date.now().toString(36)
const newcomer = { email: `newcomer-${run}@example.com`, password: 'Kart-Pass-2026!', discord: `newcomer_${run}` }

describe('a newcomer mid-season', { skip, timeout: 300_000 }, () => {
  let smtp
  let db
  let server
  let browser

  before(async () => {
    mkdirSync(shotsDir, { recursive: true })
    db = seededDatabase(databaseUrl, 'newcomer_e2e', 'matches', 'Demo-Newcomer-2026!')
    smtp = await startSmtp()
    server = await startServer({ databaseUrl: db.url, smtpUrl: smtp.url })
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await smtp?.close()
    try {
      db?.drop()
    } catch (err) {
      console.error('[e2e] could not drop the database', String(err))
    }
  })

  const newPage = async (viewport, opts = {}) => {
    const ctx = await browser.newContext({ viewport, reducedMotion: 'reduce', ...opts })
    const page = await ctx.newPage()
    page.setDefaultTimeout(20_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    return page
  }

  it('signs up at the matches phase and ends at the saved stats, with no Register the server would refuse', async () => {
    const page = await newPage({ width: 1440, height: 900 }, { serviceWorkers: 'block' })
    const registers = []
    page.on('request', (r) => {
      if (r.url().includes('/api/tournament/register')) registers.push(r.url())
    })
    await page.goto(`${server.base}/`)
    // The home page at this phase: the season's matches, no REGISTER.
    await page.locator('.season-now[data-phase="matches"]').waitFor()
    assert.equal(await page.getByRole('button', { name: 'REGISTER' }).count(), 0, 'the home page offers REGISTER at the matches phase')

    await page.getByRole('banner').getByRole('button', { name: 'Sign Up' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Confirm password').waitFor()
    await dialog.getByLabel('Discord username').fill(newcomer.discord)
    await dialog.getByLabel('Email').fill(newcomer.email)
    await dialog.getByLabel('Password', { exact: true }).fill(newcomer.password)
    await dialog.getByLabel('Confirm password').fill(newcomer.password)
    const mailsBefore = smtp.mails.length
    await dialog.getByRole('button', { name: 'Sign Up' }).click()
    const otp = await smtp.otpFor(newcomer.email, { since: mailsBefore })
    await dialog.getByLabel(/Verification code/).fill(otp)
    await dialog.getByRole('button', { name: 'Verify OTP' }).click()

    // Signed in by itself, on to the stats: the upload is not said to come "before registering".
    await dialog.getByRole('button', { name: 'UPLOAD STATS' }).waitFor({ timeout: 15_000 })
    assert.equal(await dialog.getByText(/before registering/).count(), 0, 'the stats step speaks of a registration the server refuses')
    await dialog.locator('input[type=file]').setInputFiles(fixture)
    await dialog.getByRole('button', { name: 'UPLOAD STATS' }).click()

    // The flow ends at the saved stats and says what comes next.
    const closed = dialog.getByTestId('registration-closed')
    await closed.waitFor({ timeout: 90_000 })
    await dialog.locator('.stats-card').waitFor()
    assert.match(await closed.innerText(), /Registration for PPLS-6\.0 is closed: its matches are on\./)
    assert.match(await closed.innerText(), /Your stats are saved/)
    assert.match(await closed.innerText(), /next season’s registration is not announced yet/)
    assert.equal(await closed.getByRole('button', { name: 'Get league news by e-mail' }).count(), 1, 'no way to follow the league')
    assert.equal(await closed.getByRole('link', { name: 'Follow the matches' }).count(), 1, 'no way to follow the matches')
    assert.equal(await dialog.getByRole('button', { name: /^Register for/ }).count(), 0, 'the card offers Register at the matches phase')
    const steps = dialog.getByRole('list', { name: 'Registration progress' })
    assert.equal(await steps.getByText('(current step)').count(), 0, 'a step is still in progress')
    assert.match(await steps.locator('li').last().innerText(), /Register\s*\(closed\)/)
    await dialog.screenshot({ path: join(shotsDir, 'newcomer-matches-card-1440.png') })

    // The profile says the same, and the tournament page's REGISTER is closed.
    await page.keyboard.press('Escape')
    await page.getByRole('banner').getByRole('button', { name: newcomer.email }).click()
    await dialog.getByRole('heading', { name: 'Your profile' }).waitFor()
    await dialog.getByTestId('registration-closed').waitFor()
    assert.equal(await dialog.getByRole('button', { name: /^Register for|Upload stats to register/ }).count(), 0, 'the profile offers Register')
    await page.keyboard.press('Escape')
    await page.goto(`${server.base}/tournament`)
    await page.getByRole('button', { name: 'Registration closed' }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'REGISTER' }).count(), 0)
    assert.deepEqual(registers, [], 'a registration was attempted')
    await page.context().close()
  })

  it('the home page’s first screen holds the season’s matches and the visitor’s own step, at 1440x900 and 390x844', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await newPage(viewport, { serviceWorkers: 'block' })
      await page.goto(`${server.base}/`)
      const step = page.getByTestId('now-step')
      await step.waitFor()
      const box = await step.boundingBox()
      assert.ok(box.y + box.height <= viewport.height, `${viewport.width}: the visitor's step ends at ${box.y + box.height}, below the first screen`)
      // The season's matches (here, the fixtures still to be made) share the first screen.
      const matches = await page.locator('.matches-now > :first-child').boundingBox()
      assert.ok(matches.y + matches.height <= viewport.height, `${viewport.width}: the matches are not in the first screen`)
      assert.match(await step.innerText(), /Registration for PPLS-6\.0 is closed/)
      await page.screenshot({ path: join(shotsDir, `home-matches-first-screen-${viewport.width}.png`) })
      await page.context().close()
    }
  })

  it('the home page’s dialog and header draw no backdrop blur (INP)', async () => {
    const page = await newPage({ width: 1440, height: 900 }, { serviceWorkers: 'block' })
    await page.goto(`${server.base}/`)
    await page.getByTestId('now-step').waitFor()
    // A blur is redrawn with every frame that changes under or inside it: each key typed in the
    // search box or in a dialog's form (2 s a key on a slowed CPU, scripts/inp.mjs).
    assert.equal(await page.locator('.site-header').evaluate((el) => getComputedStyle(el).backdropFilter), 'none')
    await page.getByRole('banner').getByRole('button', { name: 'Sign Up' }).click()
    await page.getByRole('dialog').getByLabel('Email').waitFor()
    assert.equal(await page.locator('.modal-backdrop').evaluate((el) => getComputedStyle(el).backdropFilter), 'none')
    await page.context().close()
  })

  it('offline, a page never visited shows the site with a note, and the page once back online', async () => {
    const page = await newPage({ width: 390, height: 844 })
    await page.goto(`${server.base}/`)
    await page.locator('.season-now[data-phase="matches"]').waitFor()
    // The service worker keeps the shell once it controls the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }))
    })
    await page.context().setOffline(true)
    // /league was never opened: its chunk is not kept.
    await page.evaluate(() => {
      window.history.pushState(null, '', '/league')
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    const note = page.getByRole('alert').filter({ hasText: 'You are offline: this page was not loaded before' })
    await note.waitFor().catch(async (err) => {
      await page.screenshot({ path: join(shotsDir, 'offline-failed-390.png') })
      console.error('[e2e] the page offline:', (await page.locator('body').innerText()).slice(0, 600))
      throw err
    })
    assert.equal(await page.getByRole('banner').isVisible(), true, 'the header is gone')
    await page.screenshot({ path: join(shotsDir, 'offline-page-390.png') })
    await page.context().setOffline(false)
    await page.getByRole('heading', { name: /League/ }).first().waitFor()
    assert.equal(await note.count(), 0, 'the note stays once the page has loaded')
    await page.context().close()
  })
})
