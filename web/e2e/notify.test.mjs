// A push notification end to end: the real Go server, PostgreSQL, Debian's Chromium, and a fake push service.
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/notify.test.mjs
// On the demo league (`seed-demo -phase matches`), a captain turns "a report waits for my confirmation"
// on; when the opponent reports, the server's river job encrypts and signs a Web Push message and posts
// it to the push service; the browser's service worker shows it.
//
// What is real and what is not: the server's sending code (VAPID JWT, RFC 8291 encryption), the page's
// service worker (public/sw.js), Chromium's permission and notification are real. Headless Chromium here
// has no internet, so its own push service (FCM) is out of reach: the push service is a fake in this
// file, registered through the API as the captain's subscription with keys this test holds. It checks
// the VAPID JWT and decrypts the message as a browser would, and the test hands the decrypted message to
// the service worker with the DevTools protocol (ServiceWorker.deliverPushMessage), the step FCM and the
// browser would do between them.
import assert from 'node:assert/strict'
import { createDecipheriv, createECDH, createPublicKey, generateKeyPairSync, hkdfSync, randomBytes, verify } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, freePort, startServer, webDir } from './lib/server.mjs'

const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'notify-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`
const b64u = (buf) => Buffer.from(buf).toString('base64url')

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

/** The server's VAPID key pair, as VAPID_PUBLIC_KEY (uncompressed point) and VAPID_PRIVATE_KEY (scalar). */
function vapidKeys() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const jwk = privateKey.export({ format: 'jwk' })
  const pub = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')])
  return { publicKey: b64u(pub), privateKey: jwk.d, jwk }
}

/** A push service: checks "vapid t=…, k=…" (RFC 8292) and decrypts aes128gcm (RFC 8291) for its one browser. */
async function fakePushService(vapid) {
  const ua = createECDH('prime256v1')
  ua.generateKeys()
  const auth = randomBytes(16)
  const received = []
  const refused = []
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const vapidKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: vapid.jwk.x, y: vapid.jwk.y }, format: 'jwk' })

  function checkJWT(header) {
    const m = /^vapid t=([^,\s]+),\s*k=([^,\s]+)$/.exec(header ?? '')
    if (!m) throw new Error(`authorization ${header}`)
    if (m[2] !== vapid.publicKey) throw new Error('k is not the server key')
    const [h, p, s] = m[1].split('.')
    if (JSON.parse(Buffer.from(h, 'base64url')).alg !== 'ES256') throw new Error('not ES256')
    const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key: vapidKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))
    if (!ok) throw new Error('bad signature')
    const claims = JSON.parse(Buffer.from(p, 'base64url'))
    if (claims.aud !== origin || !(claims.exp > Date.now() / 1000) || !/^(mailto|https):/.test(claims.sub)) {
      throw new Error(`claims ${JSON.stringify(claims)}`)
    }
  }

  function decrypt(body) {
    const salt = body.subarray(0, 16)
    const idlen = body[20]
    const asPublic = body.subarray(21, 21 + idlen)
    const ciphertext = body.subarray(21 + idlen)
    const shared = ua.computeSecret(asPublic)
    const info = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic])
    const ikm = Buffer.from(hkdfSync('sha256', shared, auth, info, 32))
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
    const d = createDecipheriv('aes-128-gcm', cek, nonce)
    d.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
    let plain = Buffer.concat([d.update(ciphertext.subarray(0, ciphertext.length - 16)), d.final()])
    let end = plain.length
    while (end > 0 && plain[end - 1] === 0) end--
    if (plain[end - 1] !== 2) throw new Error('no last-record delimiter')
    plain = plain.subarray(0, end - 1)
    return plain.toString('utf8')
  }

  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      try {
        checkJWT(req.headers.authorization)
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm')
        received.push(decrypt(Buffer.concat(chunks)))
        res.writeHead(201).end()
      } catch (e) {
        refused.push(String(e.message))
        res.writeHead(400).end(String(e.message))
      }
    })
  })
  await new Promise((r) => server.listen(port, '127.0.0.1', r))
  return {
    host: `127.0.0.1:${port}`,
    subscription: { endpoint: `${origin}/push/captain`, keys: { p256dh: b64u(ua.getPublicKey()), auth: b64u(auth) } },
    received,
    refused,
    close: () => new Promise((r) => server.close(r)),
  }
}

async function waitFor(what, fn, ms = 30_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe('a push notification in a real Chromium', { skip, timeout: 180_000 }, () => {
  let db, server, push, browser
  const vapid = vapidKeys()

  before(async () => {
    db = seededDatabase(adminUrl, 'notify_e2e', 'matches', PASSWORD)
    push = await fakePushService(vapid)
    server = await startServer({
      databaseUrl: db.url,
      smtpUrl: '',
      adminEmails: ORGANISER,
      extraEnv: {
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:league@example.com',
        PUSH_ENDPOINT_HOSTS: push.host,
      },
    })
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await push?.close()
    db?.drop()
  })

  const login = async (email) => (await apiCall(server.base, 'POST', '/auth/login', { email, password: PASSWORD })).token

  it('a captain with notifications on gets a push when the opponent reports', async () => {
    const admin = await login(ORGANISER)
    await apiCall(server.base, 'POST', '/admin/tournaments/PPL7/bracket', { format: 'round_robin' }, admin)
    const bracket = await apiCall(server.base, 'GET', '/tournaments/PPL7/bracket')
    const match = bracket.rounds[0].matches[0]
    const home = match.team1.id
    const away = match.team2.id
    const homeTok = await login(captainEmail(home))
    const awayTok = await login(captainEmail(away))

    // The home captain's browser: notifications granted, the site's service worker registered.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await ctx.grantPermissions(['notifications'], { origin: server.base })
    await ctx.addInitScript((t) => {
      if (location.protocol.startsWith('http')) window.localStorage.setItem('token', t)
    }, homeTok)
    const page = await ctx.newPage()
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    const cdp = await ctx.newCDPSession(page)
    const registrations = []
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: rs }) => registrations.push(...rs))
    await cdp.send('ServiceWorker.enable')
    await page.goto(`${server.base}/`)
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js')
      await navigator.serviceWorker.ready
    })
    const reg = await waitFor('the service worker registration', () =>
      registrations.find((r) => r.scopeURL.startsWith(server.base) && !r.isDeleted),
    )

    // The captain chooses the kind (the profile's checkbox) and this subscription is registered
    // through the API: the fake service's endpoint with this test's keys (the browser's own
    // subscription would need FCM).
    await page.getByTitle('Your profile').click()
    const settings = page.getByTestId('notification-settings')
    await settings.getByText('Push in this browser').waitFor()
    const box = settings.getByRole('checkbox', { name: 'A report waits for my confirmation: push' })
    await box.click()
    await waitFor('the choice saved', async () => {
      const s = await apiCall(server.base, 'GET', '/me/notifications', undefined, homeTok)
      return s.kinds.find((k) => k.kind === 'report_waiting').push
    })
    await waitFor('the box ticked', () => box.isChecked())
    await apiCall(server.base, 'POST', '/me/notifications/push', push.subscription, homeTok)
    // No page of the site stays open: the worker shows a system notification, not a toast.
    await page.goto('about:blank')

    // The opponent reports, with the end-of-match screenshot.
    const form = new FormData()
    form.append('screenshot', new Blob([readFileSync(`${webDir}/e2e/fixtures/sk-stats.png`)], { type: 'image/png' }), 'end.png')
    const proofRes = await fetch(`${server.base}/api/matches/${match.id}/proof`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${awayTok}` },
      body: form,
    })
    assert.equal(proofRes.status, 201, await proofRes.clone().text())
    const { screenshotId } = await proofRes.json()
    const { match: full } = await apiCall(server.base, 'GET', `/matches/${match.id}`)
    const players = []
    let place = 1
    for (const side of [away, home]) {
      for (const p of full.members[side].slice(0, 2)) players.push({ userId: p.user_id, kills: 9, deaths: 2, placement: place++ })
    }
    await apiCall(server.base, 'POST', `/matches/${match.id}/report`, { winner: away, players, screenshotId }, awayTok)

    // The server's job posts the message to the push service, signed and encrypted.
    const sent = await waitFor('the push message', () => push.received[0], 30_000)
    assert.deepEqual(push.refused, [])
    const message = JSON.parse(sent)
    assert.equal(message.kind, 'report_waiting')
    assert.match(message.title, new RegExp(`^Match ${match.id}:`))
    assert.match(message.unsubscribe, /\/notifications\/off\?token=/)

    // The push service hands it to the browser's service worker, which shows it.
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(server.base).origin, registrationId: reg.registrationId, data: sent })
    const viewer = await ctx.newPage()
    await viewer.goto(`${server.base}/`)
    const shown = await waitFor('the notification', () =>
      viewer.evaluate(async () => {
        const r = await navigator.serviceWorker.ready
        return (await r.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }))
      }).then((ns) => (ns.length ? ns : null)),
    )
    assert.equal(shown.length, 1)
    assert.equal(shown[0].title, message.title)
    assert.equal(shown[0].body, message.body)

    // With a page of the site open, the same message is a toast on the page instead. The toasts
    // load with the footer, just after the page's first render: wait for it, as a player who has
    // the page open has it.
    await viewer.getByRole('contentinfo').waitFor()
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(server.base).origin, registrationId: reg.registrationId, data: sent })
    await viewer.getByTestId('notice-toast').filter({ hasText: message.title }).waitFor({ timeout: 15_000 })
    await ctx.close()
  })
})
