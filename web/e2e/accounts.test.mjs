// Accounts that last, end to end against the real Go server, PostgreSQL, an SMTP server in this
// process and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/accounts.test.mjs
// On `seed-demo -phase matches` (every player signs in) with ADMIN_REQUIRE_2FA=true:
// - a player resets a forgotten password from the sign-in form's "Forgot password?" with the mailed
//   code, and the token they had before is refused;
// - a player signs another device out from the profile, moves the account to a new address with the
//   code sent there, downloads their data and deletes the account: they cannot sign in, the public
//   list shows "Deleted player N" and the bracket reads as before;
// - someone signs up with a player's address: the answer is a new sign-up's, the player is mailed a
//   note instead of a code, and the code step leads on to the password reset;
// - the organiser, whose password alone no longer gives the organiser's powers, adds a passkey (the
//   DevTools virtual authenticator) from the profile; a later session cannot rule a dispute until it
//   uses the passkey on /admin/matches, nor change the password from the profile until it confirms
//   with the passkey there.
// The site is opened as http://localhost:PORT (a passkey's relying party must be a domain).
// Screenshots at 1440 and 390 px go to ACCOUNT_SHOTS (default /tmp/account-web-shots; 'off': none).
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'
import { startSmtp } from './lib/smtp.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const shots = process.env.ACCOUNT_SHOTS || '/tmp/account-web-shots'
const proofPng = readFileSync(join(here, 'fixtures', 'sk-stats.png'))
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'accounts-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const T = 'PPL7'
const playerEmail = (n) => `player${String(n).padStart(3, '0')}@demo.pitlane.local`
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('accounts that last, in a real browser', { skip, timeout: 240_000 }, () => {
  let db
  let server
  let smtp
  let browser
  const api = (method, path, body, token) => apiCall(server.base, method, path, body, token)
  const login = async (email, password = PASSWORD) => (await api('POST', '/auth/login', { email, password })).token
  /** The status of a call (apiCall throws on an error status). */
  async function status(method, path, body, token) {
    const res = await fetch(`${server.base}/api${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return res.status
  }

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    smtp = await startSmtp()
    db = seededDatabase(adminUrl, 'accounts_e2e', 'matches', PASSWORD, { playersSignIn: true })
    server = await startServer({
      databaseUrl: db.url,
      smtpUrl: smtp.url,
      adminEmails: ORGANISER,
      host: 'localhost',
      extraEnv: { ADMIN_REQUIRE_2FA: 'true' },
    })
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await smtp?.close()
    db?.drop()
  })

  async function open(path, { token = null, width = 1440 } = {}) {
    const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, reducedMotion: 'reduce', acceptDownloads: true })
    if (token) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    await page.goto(`${server.base}${path}`)
    return page
  }

  const shoot = (page, name) => shootBothWidths(page, shots, name)

  const openProfile = async (page) => {
    await page.getByRole('banner').locator('.user-email').click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Your profile' }).waitFor()
    return dialog
  }

  it('a forgotten password comes back by the mailed code, and the old session ends', async () => {
    const email = playerEmail(30)
    const before = await login(email)
    const page = await open('/')
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByRole('button', { name: 'Forgot password?' }).click()
    await dialog.getByRole('heading', { name: 'Reset your password' }).waitFor()
    const since = smtp.mails.length
    await dialog.getByRole('button', { name: 'Send me a code' }).click()
    await dialog.getByText('If an account uses this address').waitFor()
    const code = await smtp.otpFor(email, { since })
    await dialog.getByLabel('Code from the e-mail').fill(code)
    await dialog.getByLabel('New password', { exact: true }).fill('brand-new-pass-30')
    await dialog.getByLabel('Confirm new password').fill('brand-new-pass-30')
    await shoot(page, 'reset-code')
    await dialog.getByRole('button', { name: 'Set new password' }).click()
    await page.getByRole('banner').locator('.user-email').filter({ hasText: email }).waitFor()
    assert.equal(await status('GET', '/auth/profile', undefined, before), 401, 'the token from before the reset is refused')
    assert.equal(await status('POST', '/auth/login', { email, password: PASSWORD }), 401, 'the old password is refused')
    await login(email, 'brand-new-pass-30')
  })

  it('a player ends another session, moves to a new address, takes a copy of the data and deletes the account', async () => {
    const email = playerEmail(20)
    const fresh = `moved.player20@example.org`
    const phone = await login(email)
    const page = await open('/', { token: await login(email) })
    const dialog = await openProfile(page)

    // Signed-in devices: the phone's session ends from here.
    await dialog.getByRole('button', { name: 'Manage devices' }).click()
    const devices = dialog.getByRole('region', { name: 'Signed-in devices' })
    await devices.getByText('This device').waitFor()
    await shoot(page, 'profile-security')
    await devices.getByRole('button', { name: 'Sign out of 1 other device' }).click()
    // Done when the list has no other device left (while the call is out the button says "Signing out…").
    await devices.getByRole('button', { name: /other device|Signing out/ }).waitFor({ state: 'detached' })
    assert.equal(await status('GET', '/auth/profile', undefined, phone), 401, "the phone's token is refused at once")

    // A new address, confirmed by the code sent there; the old address is told.
    await dialog.getByRole('button', { name: 'Change e-mail' }).click()
    await dialog.getByLabel('New e-mail address').fill(fresh)
    await dialog.getByLabel('Your password').fill(PASSWORD)
    const since = smtp.mails.length
    await dialog.getByRole('button', { name: 'Send a code' }).click()
    const code = await smtp.otpFor(fresh, { since })
    await dialog.getByLabel(`Code sent to ${fresh}`).fill(code)
    await dialog.getByRole('button', { name: 'Confirm new address' }).click()
    await dialog.getByText('Your address is changed.').waitFor()
    await page.getByRole('banner').locator('.user-email').filter({ hasText: fresh }).waitFor()
    // The old address hears of it (the notice goes out after the answer).
    await smtp.mailWhere((m) => m.to.includes(email) && /now uses another address/.test(m.text), { since, what: 'notice to the old address' })

    // The copy of the data.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download my data' }).click()])
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'))
    assert.equal(exported.data.account.email, fresh)
    assert.ok(exported.data.stats && exported.data.registrations.length > 0, 'the export holds the stats and registrations')

    // Deletion: the password, then the account is gone and the league's pages still add up.
    const player = exported.data.account.id
    const bracketBefore = await api('GET', `/tournaments/${T}/standings`)
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await dialog.getByRole('form', { name: 'Delete account' }).getByLabel('Your password').fill('not-my-password')
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click()
    await dialog.getByText('Enter your password to confirm.').waitFor()
    await shoot(page, 'profile-delete')
    await dialog.getByRole('form', { name: 'Delete account' }).getByLabel('Your password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).waitFor()
    assert.equal(await status('POST', '/auth/login', { email: fresh, password: PASSWORD }), 401)
    const regs = await api('GET', `/tournament/registrations?tournamentName=${T}`)
    assert.ok(regs.players.some((p) => p.name === `Deleted player ${player}`), 'the list shows the pseudonym')
    assert.ok(!JSON.stringify(regs).includes(fresh) && !JSON.stringify(regs).includes(email))
    assert.deepEqual(await api('GET', `/tournaments/${T}/standings`), bracketBefore, 'the standings read as before')
  })

  it('signing up with an address that has an account looks like any sign-up; its owner is mailed a note', async () => {
    const email = playerEmail(40)
    const page = await open('/')
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('tab', { name: 'Sign Up' }).click()
    await dialog.getByLabel('Discord username').fill('someone_else')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password', { exact: true }).fill('someone-elses-pass')
    await dialog.getByLabel('Confirm password').fill('someone-elses-pass')
    const since = smtp.mails.length
    await dialog.getByRole('button', { name: 'Sign Up' }).click()
    await dialog.getByText('Account created! Please check your email for OTP verification.').waitFor()
    await dialog.getByText('Already have an account with this address?').waitFor()
    await smtp.mailWhere((m) => m.to.includes(email) && /already has an account/.test(m.text) && !/verification code is/.test(m.text), {
      since,
      what: 'the note to the owner',
    })
    await shoot(page, 'signup-existing-address')
    await dialog.getByRole('button', { name: 'Reset my password' }).click()
    await dialog.getByRole('heading', { name: 'Reset your password' }).waitFor()
    assert.equal(await dialog.getByLabel('Email').inputValue(), email, 'the reset starts from the address typed')
    assert.equal(await status('POST', '/auth/login', { email, password: 'someone-elses-pass' }), 401, "the stranger's password is nobody's")
    await login(email)
  })

  it('an organiser adds a passkey, and a later session rules a dispute only once it used it', async () => {
    const page = await open('/')
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    })

    // The password alone signs the organiser in as a player, and asks for the second step.
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).click()
    let dialog = page.getByRole('dialog')
    await dialog.getByLabel('Email').fill(ORGANISER)
    await dialog.getByLabel('Password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Sign In' }).click()
    await dialog.getByRole('heading', { name: 'Two-step sign-in' }).waitFor()
    await dialog.getByText('This league asks organisers to use two-step sign-in').waitFor()
    await dialog.getByRole('button', { name: 'Continue as a player' }).click()
    const first = await page.evaluate(() => window.localStorage.getItem('token'))
    assert.equal(await status('GET', '/admin/audit?limit=1', undefined, first), 403, 'no organiser powers yet')

    // The profile: a passkey, made by the virtual authenticator.
    dialog = await openProfile(page)
    const twoStep = dialog.getByRole('region', { name: 'Two-step sign-in' })
    await twoStep.getByRole('button', { name: 'Add a passkey' }).click()
    await twoStep.getByLabel('Name it').fill('Test laptop')
    await twoStep.getByLabel('Your password').fill(PASSWORD)
    await twoStep.getByRole('button', { name: 'Create passkey' }).click()
    await twoStep.getByText('Test laptop').waitFor()
    await twoStep.getByText('confirmed ✓').waitFor()
    await shoot(page, 'profile-two-step')
    assert.equal(await status('GET', '/admin/audit?limit=1', undefined, first), 200, 'the session that added the passkey acts as organiser')

    // A dispute to rule: fixtures, a report, the other side disputes.
    await api('POST', `/admin/tournaments/${T}/bracket`, { format: 'single_elimination' }, first)
    const b = await api('GET', `/tournaments/${T}/bracket`)
    const m0 = b.rounds[0].matches.find((m) => m.team1 && m.team2)
    const home = await login(captainEmail(m0.team1.id))
    const away = await login(captainEmail(m0.team2.id))
    const m = (await api('GET', `/matches/${m0.id}`, undefined, home)).match
    const form = new FormData()
    form.append('screenshot', new Blob([proofPng], { type: 'image/png' }), 'end.png')
    const proof = await (await fetch(`${server.base}/api/matches/${m.id}/proof`, { method: 'POST', headers: { Authorization: `Bearer ${home}` }, body: form })).json()
    const players = [...m.members[m.team1.id].slice(0, 2), ...m.members[m.team2.id].slice(0, 2)].map((p, i) => ({
      userId: p.user_id, kills: 20 - i * 3, deaths: 4 + i, placement: i + 1,
    }))
    await api('POST', `/matches/${m.id}/report`, { winner: m.team1.id, players, screenshotId: proof.screenshotId }, home)
    await api('POST', `/matches/${m.id}/dispute`, { reason: 'Our kart crossed first: see the screenshot.' }, away)

    // A new session of the organiser: refused until it uses the passkey.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).click()
    dialog = page.getByRole('dialog')
    await dialog.getByLabel('Email').fill(ORGANISER)
    await dialog.getByLabel('Password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Sign In' }).click()
    await dialog.getByRole('heading', { name: 'Two-step sign-in' }).waitFor()
    await dialog.getByRole('button', { name: 'Not now: continue as a player' }).click()
    const second = await page.evaluate(() => window.localStorage.getItem('token'))
    assert.notEqual(second, first)
    const ruling = { winner: m.team2.id, players }
    assert.equal(await status('POST', `/admin/matches/${m.id}/resolve`, ruling, second), 403, 'a session without its second factor cannot rule')

    await page.goto(`${server.base}/admin/matches`)
    const gate = page.getByRole('region', { name: 'Two-step sign-in' })
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor()
    await shoot(page, 'admin-second-factor')
    await gate.getByRole('button', { name: 'Use a passkey' }).click()
    await page.locator(`.queue-item[data-match-id="${m.id}"][data-status="disputed"]`).waitFor()
    assert.equal(await status('POST', `/admin/matches/${m.id}/resolve`, ruling, second), 200, 'the same session rules once it used the passkey')

    // A third session, by the password alone, cannot change the password from the profile until it
    // confirms with the passkey there.
    await page.goto(`${server.base}/`)
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Login' }).click()
    dialog = page.getByRole('dialog')
    await dialog.getByLabel('Email').fill(ORGANISER)
    await dialog.getByLabel('Password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Sign In' }).click()
    await dialog.getByRole('button', { name: 'Not now: continue as a player' }).click()
    const third = await page.evaluate(() => window.localStorage.getItem('token'))
    const change = { currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD }
    assert.equal(await status('POST', '/auth/change-password', change, third), 403, 'the password alone cannot change the password')
    dialog = await openProfile(page)
    await dialog.getByRole('button', { name: 'Change password' }).click()
    const stepUp = dialog.getByRole('region', { name: 'Confirm it is you' })
    await stepUp.getByText('confirm this session with your authenticator app, a recovery code or a passkey to change your password').waitFor()
    await shoot(page, 'profile-step-up')
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click()
    await dialog.getByRole('form', { name: 'Change password' }).getByLabel('Current password').waitFor()
    assert.equal(await status('POST', '/auth/change-password', change, third), 200, 'the session that used the passkey changes it')
  })
})
