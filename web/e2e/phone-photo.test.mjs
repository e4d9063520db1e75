// A phone photo of a stats screen, read end to end in the web app: a new player (signed up over
// the API, OTP from our SMTP server) opens the stats step from the profile in Chromium and uploads
// a 4032x3024 photo of a monitor showing a real Smash Karts Stats screen (e2e/fixtures/phone-4032:
// a capture held out from the reader's tuning, photographed by the simulator with a seed never used
// before). The offline reader (no Gemini key) reads it; the review shows every figure right, or
// held for the player (flagged, or empty to type): none silently wrong. The player confirms and
// saves, and the profile keeps the figures of the screen.
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/phone-photo.test.mjs
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { launch, shoot } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, signUp, startServer, tmpDir } from './lib/server.mjs'
import { startSmtp } from './lib/smtp.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const photo = join(here, 'fixtures', 'phone-4032.jpg')
const { truth } = JSON.parse(readFileSync(join(here, 'fixtures', 'phone-4032.json'), 'utf8'))
const databaseUrl = process.env.E2E_DATABASE_URL
const skip = databaseUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'
const PASSWORD = 'Demo-Photo-2026!'
// E2E_SHOTS names a folder to keep the review's screenshot in.
const shotsDir = process.env.E2E_SHOTS || join(tmpDir, 'photo-shots')
const run = Date.now().toString(36)
const player = { email: `photo-${run}@example.com`, password: 'Kart-Photo-2026!', discord: `photo_${run}` }

describe('a phone photo of the stats screen, in the browser', { skip, timeout: 180_000 }, () => {
  let db
  let smtp
  let server
  let browser

  before(async () => {
    db = seededDatabase(new URL('/postgres', databaseUrl).toString(), 'pitlane_photo', 'registration', PASSWORD)
    smtp = await startSmtp()
    server = await startServer({ databaseUrl: db.url, smtpUrl: smtp.url })
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await smtp?.close()
    db?.drop()
  })

  it('reads every figure right or holds it for the player, and saves what the screen shows', async () => {
    await signUp(server.base, smtp, player)
    const { token } = await apiCall(server.base, 'POST', '/auth/login', { email: player.email, password: player.password })

    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' })
    await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
    const page = await ctx.newPage()
    page.setDefaultTimeout(20_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(`${server.base}/`)
    // The header's account button opens the profile, which offers the stats step.
    await page.locator('header').getByRole('button', { name: new RegExp(`^photo-${run}`) }).click()
    await page.getByRole('button', { name: 'Upload stats to register' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'UPLOAD STATS' }).waitFor()
    await dialog.locator('input[type=file]').first().setInputFiles(photo)
    await dialog.getByRole('button', { name: 'UPLOAD STATS' }).click()
    const review = dialog.locator('form.stats-review')
    await review.waitFor({ timeout: 90_000 })
    await shoot(page, shotsDir, 'phone-4032-review', { fullPage: false })

    // Every figure the review shows: right, or held (flagged, or left empty to type).
    const fields = { level: 'Level', kills: 'Kills', deaths: 'Deaths' }
    const seen = {}
    for (const [key, label] of Object.entries(fields)) {
      const input = review.getByLabel(label, { exact: true })
      const value = await input.inputValue()
      const flagged = (await input.getAttribute('aria-invalid')) === 'true'
      seen[key] = { value, flagged }
      if (truth[key] === null) {
        assert.equal(value, '', `${label}: the screen does not show it, yet the review says ${value}`)
        continue
      }
      assert.ok(value === truth[key] || flagged || value === '', `${label}: read ${value}, not flagged, but the screen shows ${truth[key]} (silently wrong)`)
    }
    const right = Object.entries(fields).filter(([k]) => truth[k] !== null && seen[k].value === truth[k]).length
    const shown = Object.keys(fields).filter((k) => truth[k] !== null).length
    console.log(`[e2e] the phone photo: ${right} of ${shown} figures shown read right; review ${JSON.stringify(seen)}`)
    assert.match(await review.locator('.review-kd strong').innerText(), new RegExp(`^${truth.kd.replace('.', '\\.')}$`))

    // The player checks what is held against the screen, types what it does not show, and saves.
    const confirm = review.getByRole('button', { name: /^Confirm / })
    while ((await confirm.count()) > 0) await confirm.first().click()
    for (const [key, label] of Object.entries(fields)) {
      const input = review.getByLabel(label, { exact: true })
      if (truth[key] !== null && (await input.inputValue()) !== truth[key]) await input.fill(truth[key])
    }
    const level = review.getByLabel('Level', { exact: true })
    if ((await level.inputValue()) === '') await level.fill('7') // from the player's own game
    const games = review.getByLabel('Games played', { exact: true })
    if ((await games.inputValue()) === '') await games.fill('300')
    await review.getByRole('button', { name: 'Save my stats' }).click()
    await dialog.getByRole('button', { name: /^Register for / }).waitFor({ timeout: 30_000 })

    const profile = await apiCall(server.base, 'GET', '/auth/profile', undefined, token)
    assert.equal(profile.user.sk_stats_uploaded, true, 'stats saved')
    const stats = profile.user.stats_data
    assert.equal(String(stats.kills), truth.kills)
    assert.equal(String(stats.deaths), truth.deaths)
    assert.equal(stats.kd.toFixed(2), truth.kd)
    await ctx.close()
  })
})
