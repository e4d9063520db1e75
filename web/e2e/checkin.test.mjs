// Check-in and substitutes end to end against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/checkin.test.mjs
// Two databases of this file's own (made on E2E_DATABASE_URL's server, dropped after): one loaded with
// `seed-demo -phase registration`, where the organiser opens the check-in on /admin and a player
// checks in from the tournament page while a watcher's list follows; one with `-phase matches`, where
// a captain asks to sign a substitute on /captain, the organiser approves on /admin/matches, the
// substitute joins the roster live and is offered for the lineup, and the captain checks their side
// in for the match in the hour before it.
// Screenshots at 1440 and 390 px go to CHECKIN_SHOTS (default /tmp/checkin-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'

const shots = process.env.CHECKIN_SHOTS || '/tmp/checkin-web-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'checkin-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const T = 'PPL7'
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('check-in and substitutes in real browsers', { skip, timeout: 240_000 }, () => {
  const dbs = []
  const servers = {}
  let browser

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    for (const phase of ['registration', 'matches']) {
      const db = seededDatabase(adminUrl, `checkin_e2e_${phase}`, phase, PASSWORD)
      dbs.push(db)
      servers[phase] = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER })
    }
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    for (const s of Object.values(servers)) await s.stop()
    for (const db of dbs) db.drop()
  })

  const login = async (server, email) => (await apiCall(server.base, 'POST', '/auth/login', { email, password: PASSWORD })).token

  const open = async (server, path, email = null, width = 1440) => {
    const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, reducedMotion: 'reduce' })
    if (email) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), await login(server, email))
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(`${server.base}${path}`)
    return page
  }

  /** Full-page shots at 1440 and at 390 px, the page put back as it was. */
  const shoot = (page, name) => shootBothWidths(page, shots, name)

  it('the organiser opens the check-in, a player checks in, and every open page follows', async () => {
    const server = servers.registration
    const watcher = await open(server, '/tournament?tab=reg')
    await watcher.getByTestId('player-count').filter({ hasText: '60' }).waitFor()
    assert.equal(await watcher.getByTestId('checkin-banner').count(), 0, 'no banner before a window')

    const organiser = await open(server, '/admin', ORGANISER)
    const card = organiser.getByRole('region', { name: 'Registration & check-in' })
    await card.getByTestId('admin-checkin').filter({ hasText: 'No check-in yet' }).waitFor()
    const when = new Date(Date.now() + 2 * 86_400_000)
    when.setHours(19, 30, 0, 0)
    const pad = (n) => String(n).padStart(2, '0')
    await card.getByLabel('Deadline (your time zone)').fill(`${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T19:30`)
    await card.getByRole('button', { name: 'Open check-in' }).click()
    await card.getByTestId('admin-checkin').filter({ hasText: 'Check-in is open until' }).waitFor()
    // The watcher's page hears of the window without a reload.
    await watcher.getByTestId('checkin-banner').filter({ hasText: '0 of 60 confirmed players checked in' }).waitFor()
    const info = await apiCall(server.base, 'GET', `/tournament/info?tournamentName=${T}`)
    assert.equal(info.checkin_state, 'open')
    assert.equal(Date.parse(info.checkin.deadline), when.getTime(), 'the deadline as the server keeps it')

    // Team B's captain, a registered player, checks in from the tournament page.
    const player = await open(server, '/tournament?tab=reg', captainEmail('B'))
    await player.getByRole('button', { name: 'Check in', exact: true }).click()
    await player.getByTestId('own-checkin').waitFor()
    await watcher.getByTestId('checkin-banner').filter({ hasText: '1 of 60 confirmed players checked in' }).waitFor()
    await watcher.locator('.player-card[data-checked-in="true"]').first().waitFor()
    await card.getByTestId('admin-places').filter({ hasText: '1 checked in' }).waitFor()
    await shoot(player, 'checkin-player')
    await shoot(organiser, 'checkin-admin')

    // The season waits for the check-in: the auction is not offered while it is open, and the page says why.
    await organiser.getByTestId('phase-refused-auction').filter({ hasText: /Its check-in is open until/ }).waitFor()
    assert.equal(await organiser.getByRole('button', { name: 'Move to auction' }).count(), 0, 'no button for a refused move')

    // Cancelled, nobody moves to the waitlist and the banner goes.
    await card.getByRole('button', { name: 'Cancel the check-in' }).click()
    await card.getByRole('button', { name: 'Yes, cancel it' }).click()
    await card.getByTestId('admin-checkin').filter({ hasText: 'No check-in yet' }).waitFor()
    await watcher.getByTestId('checkin-banner').waitFor({ state: 'detached' })
    const list = await apiCall(server.base, 'GET', `/tournament/registrations?tournamentName=${T}`)
    assert.equal(list.waitlisted, 0)
    assert.equal(list.confirmed, 60)
  })

  it('a captain asks to sign a substitute, the organiser approves, the substitute plays; the side checks in for its match', async () => {
    const server = servers.matches
    const admin = await login(server, ORGANISER)
    const captain = await open(server, '/captain', captainEmail('C'))
    const mine = captain.getByRole('region', { name: 'Substitutes' })
    await mine.getByTestId('bench-C').filter({ hasText: 'nobody yet' }).waitFor()
    const ask = mine.getByRole('button', { name: /^Ask to sign / }).and(captain.locator(':enabled')).first()
    const label = await ask.getAttribute('aria-label')
    const signed = label.replace('Ask to sign ', '')
    await ask.click()
    await mine.locator('.status-pill.status-pending').waitFor()

    const organiser = await open(server, '/admin/matches', ORGANISER)
    const subs = organiser.getByRole('region', { name: 'Substitutes' })
    await subs.getByText(`Team C: ${signed}`).waitFor()
    await shoot(organiser, 'substitutes-admin')
    await subs.getByRole('button', { name: `Approve team C signing ${signed}` }).click()
    await subs.getByText('No request waits.').waitFor()

    // The captain's page, open all along: the substitute joins the roster and the bench.
    await captain.getByTestId('roster-C').first().locator('.roster-sub').getByText(signed).waitFor()
    await mine.getByTestId('bench-C').filter({ hasText: `(1 of 2): ${signed}` }).waitFor()
    await shoot(captain, 'substitutes-captain')

    // The fixtures, and team C's match in 40 minutes: the lineup offers the substitute, the captain checks in.
    const b = await apiCall(server.base, 'POST', `/admin/tournaments/${T}/bracket`, { format: 'single_elimination' }, admin)
    const match = b.rounds[0].matches.find((m) => m.team1.id === 'C' || m.team2.id === 'C')
    const at = new Date(Date.now() + 40 * 60_000)
    at.setSeconds(0, 0)
    await apiCall(server.base, 'POST', `/matches/${match.id}/time`, { at: at.toISOString() }, admin)
    const page = await open(server, `/matches/${match.id}`, captainEmail('C'))
    const lineup = page.getByRole('region', { name: 'Your lineup' })
    await lineup.getByRole('checkbox', { name: `${signed} Sub` }).waitFor()
    const checkin = page.getByRole('region', { name: 'Check-in' })
    await checkin.getByText(/Open until the match’s time/).waitFor()
    await checkin.getByRole('button', { name: 'Check in team C' }).click()
    await checkin.locator('li[data-team="C"][data-checked-in="true"]').waitFor()
    await organiser.locator(`li[data-match-id="${match.id}"] .checkin-line .status-checked-in`).waitFor()
    await shoot(page, 'match-checkin')
    const m = (await apiCall(server.base, 'GET', `/matches/${match.id}`, undefined, admin)).match
    assert.ok(m.checked_in.C, 'the server has the check-in')
    assert.equal(m.members.C.at(-1).substitute, true, 'the substitute plays for team C')
  })
})
