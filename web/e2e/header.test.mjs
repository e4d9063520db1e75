// The header at every desktop width, signed out and as the organiser (whose Admin link crowds it),
// against the real Go server and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/header.test.mjs
// Nothing in the bar runs past its right edge, and where the search field is shown, its placeholder
// ("Find a player or team") is whole: the field had shrunk to "Find a" at 1440 px for an organiser;
// where the bar has no room for the field, a link to the search page stands in for it.
// Screenshots of the bar go to HEADER_SHOTS (default /tmp/header-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { launch } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'

const shots = process.env.HEADER_SHOTS || '/tmp/header-web-shots'
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'header-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
// A player of the demo league (the first eight are its captains): signed in, the bar also has Rooms.
const PLAYER = 'player009@demo.pitlane.local'
const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('the header, in a real browser', { skip, timeout: 180_000 }, () => {
  let browser, db, server
  const tokens = {}

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    db = seededDatabase(adminUrl, 'e2e_header', 'registration', PASSWORD, { playersSignIn: true })
    server = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER })
    for (const [who, email] of [['organiser', ORGANISER], ['player', PLAYER]]) {
      ;({ token: tokens[who] } = await apiCall(server.base, 'POST', '/auth/login', { email, password: PASSWORD }))
    }
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    db?.drop()
  })

  for (const who of ['organiser', 'player', 'visitor']) {
    it(`fits its bar and shows the search whole, ${who}`, async () => {
      for (const width of [1440, 1280, 1180, 1024, 900]) {
        const ctx = await browser.newContext({ viewport: { width, height: 400 }, reducedMotion: 'reduce' })
        if (tokens[who]) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), tokens[who])
        const page = await ctx.newPage()
        page.setDefaultTimeout(15_000)
        await page.goto(`${server.base}/tournament`)
        const banner = page.getByRole('banner')
        await banner.getByRole('button', { name: tokens[who] ? 'Logout' : 'Login' }).waitFor({ state: 'attached' })
        const bar = await page.evaluate(() => {
          const inner = document.querySelector('.header-inner').getBoundingClientRect()
          const past = [...document.querySelectorAll('.header-inner a, .header-inner button, .header-inner input')]
            .filter((el) => el.getClientRects().length > 0)
            .filter((el) => el.getBoundingClientRect().right > inner.right + 0.5)
            .map((el) => el.textContent || el.getAttribute('aria-label') || el.tagName)
          const input = document.querySelector('.header-inner input[type=search]')
          const shown = input.getClientRects().length > 0
          const cs = getComputedStyle(input)
          const text = document.createElement('canvas').getContext('2d')
          text.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`
          return {
            past,
            shown,
            // The room for text: the box without its padding, borders and the search field's clear button (~16 px).
            room: input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16,
            placeholder: text.measureText(input.placeholder).width,
            link: [...document.querySelectorAll('.header-inner a[href="/search"]')].some((a) => a.getClientRects().length > 0),
          }
        })
        if (shots !== 'off') await page.screenshot({ path: `${shots}/header-${who}-${width}.png`, clip: { x: 0, y: 0, width, height: 64 } })
        await ctx.close()
        assert.deepEqual(bar.past, [], `${who} at ${width} px: past the bar's edge`)
        if (bar.shown) assert.ok(bar.room >= bar.placeholder, `${who} at ${width} px: the field has ${bar.room} px for a ${bar.placeholder} px placeholder`)
        else assert.ok(bar.link, `${who} at ${width} px: neither the search field nor a link to the search page`)
      }
    })
  }
})
