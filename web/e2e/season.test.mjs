// A short season end to end against the real Go server, PostgreSQL and Debian's Chromium:
//   E2E_DATABASE_URL=postgres://… [PITLANE_BIN=../bin/pitlane] node --test e2e/season.test.mjs
// On a database of its own (made on E2E_DATABASE_URL's server, dropped after) loaded with
// `seed-demo -phase matches`: the organiser makes single-elimination fixtures on /admin/matches;
// a captain finds the match in "Your matches", posts the room, picks a lineup and reports with the
// screenshot, the other captain confirms; one result is disputed and the organiser rules on it;
// one side forfeits and the organiser forfeits another that did not turn up; the rest is played
// over the API. A watching page follows it all without a reload, the champion and the Red Cap
// are crowned, the badges show on the winners' cards, and once a new season opens the finished
// one is still there through the season picker.
// Screenshots at 1440 and 390 px go to SEASON_SHOTS (default /tmp/season-web-shots; 'off' for none).
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { launch, shootBothWidths } from './lib/browser.mjs'
import { seededDatabase } from './lib/db.mjs'
import { apiCall, startServer } from './lib/server.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const shots = process.env.SEASON_SHOTS || '/tmp/season-web-shots' // 'off': none (a faster run)
const proofPng = readFileSync(join(here, 'fixtures', 'sk-stats.png'))
const proofPath = join(here, 'fixtures', 'sk-stats.png')
const adminUrl = process.env.E2E_DATABASE_URL
const PASSWORD = 'season-e2e-pass'
const ORGANISER = 'organiser@demo.pitlane.local'
const T = 'PPL7'
const captainEmail = (letter) => `captain.${letter.toLowerCase()}@demo.pitlane.local`

const skip = adminUrl ? false : 'E2E_DATABASE_URL is not set (the Makefile creates a fresh database and sets it)'

describe('a short season in real browsers', { skip, timeout: 300_000 }, () => {
  let db
  let server
  let browser
  const tokens = {}
  const api = (method, path, body, who) => apiCall(server.base, method, path, body, who ? tokens[who] : undefined)

  async function login(email) {
    const { token } = await apiCall(server.base, 'POST', '/auth/login', { email, password: PASSWORD })
    return token
  }

  before(async () => {
    if (shots !== 'off') mkdirSync(shots, { recursive: true })
    db = seededDatabase(adminUrl, 'seasonweb_e2e', 'matches', PASSWORD)
    server = await startServer({ databaseUrl: db.url, smtpUrl: '', adminEmails: ORGANISER })
    tokens.admin = await login(ORGANISER)
    for (const l of 'ABCDEFGH') tokens[l] = await login(captainEmail(l))
    browser = await launch()
  })

  after(async () => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    db?.drop()
  })

  const open = async (path, who = null, width = 1440) => {
    const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, reducedMotion: 'reduce' })
    if (who) await ctx.addInitScript((t) => window.localStorage.setItem('token', t), tokens[who])
    const page = await ctx.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('[pageerror]', e.message))
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) console.error('[console]', m.text())
    })
    await page.goto(`${server.base}${path}`)
    return page
  }

  /** Full-page shots at 1440 and at 390 px, the page put back as it was. */
  const shoot = (page, name) => shootBothWidths(page, shots, name)

  const bracket = () => api('GET', `/tournaments/${T}/bracket`)
  const matchOf = async (id) => (await api('GET', `/matches/${id}`, undefined, 'admin')).match

  async function uploadProof(id, who) {
    const form = new FormData()
    form.append('screenshot', new Blob([proofPng], { type: 'image/png' }), 'end.png')
    const res = await fetch(`${server.base}/api/matches/${id}/proof`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens[who]}` },
      body: form,
    })
    assert.equal(res.status, 201, await res.clone().text())
    return (await res.json()).screenshotId
  }

  /** A report of the match by `who`: the winner's players kill more; kills grow with `n` so one player leads the Red Cap. */
  async function report(m, winner, who, n) {
    const players = []
    let place = 1
    for (const side of [winner, m.team1.id === winner ? m.team2.id : m.team1.id]) {
      for (const [i, p] of m.members[side].slice(0, 2).entries()) {
        players.push({ userId: p.user_id, kills: side === winner ? 20 + n * 3 - i * 5 : 6 + i, deaths: side === winner ? 4 : 12, placement: place++ })
      }
    }
    const screenshotId = await uploadProof(m.id, who)
    return api('POST', `/matches/${m.id}/report`, { winner, players, screenshotId }, who)
  }

  it('plays a season: fixtures, report and confirm, a dispute ruled on, a forfeit, champion, Red Cap, badges; watchers follow live', async () => {
    const started = Date.now()
    // The watcher: the bracket tab, left open the whole time.
    const watcher = await open('/tournament?tab=bracket')
    await watcher.getByText('The fixtures appear when the organisers generate them.').waitFor()
    await watcher.evaluate(() => {
      window.__noReload = true
    })

    // The organiser makes single-elimination fixtures on /admin/matches.
    const organiser = await open('/admin/matches', 'admin')
    await organiser.getByTestId('phase').filter({ hasText: 'matches' }).waitFor()
    await organiser.getByRole('radio', { name: /Single elimination/ }).check()
    await organiser.getByRole('button', { name: 'Generate fixtures' }).click()
    await organiser.getByText('Fixtures made: 7 matches, Single elimination.').waitFor()

    // The watcher sees the fixtures arrive.
    await watcher.waitForFunction(() => document.querySelectorAll('.match-card[data-match-id]').length === 7)
    const b = await bracket()
    assert.equal(b.format, 'single_elimination')
    assert.equal(b.rounds[0].matches.length, 4)
    const [qf1, qf2, qf3, qf4] = b.rounds[0].matches

    // QF1 through the pages: the home captain finds it under "Your matches".
    const home = qf1.team1.id
    const away = qf1.team2.id
    const homePage = await open('/tournament?tab=bracket', home)
    await homePage.getByRole('heading', { name: `Your matches · Team ${home}` }).waitFor()
    await shoot(homePage, 'captain-matches')
    const awayPage = await open(`/matches/${qf1.id}`, away)
    await awayPage.getByText('The home captain (team').waitFor()
    await homePage.locator(`.captain-match[data-match-id="${qf1.id}"]`).click()
    await homePage.waitForURL((u) => u.pathname === `/matches/${qf1.id}`)
    await homePage.getByLabel('Private room code or link').fill('SKROOM-771')
    await homePage.getByRole('button', { name: 'Post room' }).click()
    await homePage.getByTestId('room').filter({ hasText: 'SKROOM-771' }).waitFor()
    // The other side's captain sees the room (live: the page was open before it was posted).
    await awayPage.getByTestId('room').filter({ hasText: 'SKROOM-771' }).waitFor()
    // The home captain sets the match's time; the other side's open page and the watcher's bracket
    // show it live, in the browser's time zone.
    const when = new Date(Date.now() + 3 * 86_400_000)
    when.setHours(19, 30, 0, 0)
    const pad = (n) => String(n).padStart(2, '0')
    const local = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T19:30`
    const shown = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false })
      .format(when)
      .replace(' at ', ', ')
    await homePage.getByText('Set it now', { exact: true }).click() // the home captain's shortcut, for a time both agreed
    await homePage.getByLabel('Day and time (your time zone)').fill(local)
    await homePage.getByRole('button', { name: 'Set time' }).click()
    await homePage.getByTestId('match-time').filter({ hasText: shown }).waitFor()
    await awayPage.getByTestId('match-time').filter({ hasText: shown }).waitFor()
    await watcher.locator(`.match-card[data-match-id="${qf1.id}"] .match-card-time`).filter({ hasText: shown }).waitFor()
    assert.equal(Date.parse((await matchOf(qf1.id)).scheduled_at), when.getTime(), 'the time as the server keeps it')
    assert.equal(await awayPage.getByRole('button', { name: 'Set time' }).count(), 0, 'no time form for the away captain')
    await shoot(homePage, 'match-time')
    await shoot(watcher, 'bracket-time')
    const q1 = await matchOf(qf1.id)
    const [h1, h2] = q1.members[home]
    const lineup = homePage.getByRole('region', { name: 'Your lineup' })
    await lineup.getByRole('checkbox', { name: h1.name }).check()
    await lineup.getByRole('checkbox', { name: h2.name }).check()
    await lineup.getByRole('button', { name: 'Save lineup' }).click()
    await homePage.getByRole('list', { name: `Team ${home} lineup` }).getByText(h2.name).waitFor()
    await awayPage.getByRole('list', { name: `Team ${home} lineup` }).getByText(h2.name).waitFor()

    await homePage.getByRole('button', { name: 'Report the result' }).click()
    const form = homePage.getByRole('form', { name: 'Report the result' })
    await form.getByRole('radio', { name: `Team ${home}` }).check()
    const a1 = q1.members[away][0]
    await form.getByRole('checkbox', { name: a1.name }).check()
    const cells = [
      [h1, '31', '3', '1'],
      [h2, '18', '5', '2'],
      [a1, '9', '14', '3'],
    ]
    for (const [p, kills, deaths, place] of cells) {
      await form.getByLabel(`Kills of ${p.name}`).fill(kills)
      await form.getByLabel(`Deaths of ${p.name}`).fill(deaths)
      await form.getByLabel(`Placement of ${p.name}`).fill(place)
    }
    await form.getByLabel('End-of-match screenshot').setInputFiles(proofPath)
    await shoot(homePage, 'match-report-form')
    await form.getByRole('button', { name: 'Report the result' }).click()
    await homePage.locator('.match-page[data-status="reported"]').waitFor()
    await homePage.getByRole('img', { name: 'The end-of-match screenshot' }).waitFor()
    // The reporter cannot confirm; the other captain can, with the deadline shown.
    assert.equal(await homePage.getByRole('button', { name: 'Confirm result' }).count(), 0)
    await awayPage.getByTestId('confirm-by').waitFor()
    await awayPage.getByRole('img', { name: 'The end-of-match screenshot' }).waitFor()
    await watcher.locator(`.match-card[data-match-id="${qf1.id}"][data-status="reported"]`).waitFor()
    await shoot(awayPage, 'match-reported')
    await awayPage.getByRole('button', { name: 'Confirm result' }).click()
    await awayPage.locator('.match-page[data-status="completed"]').waitFor()
    await homePage.locator('.match-page[data-status="completed"]').waitFor()
    await watcher.locator(`.match-card[data-match-id="${qf1.id}"][data-status="completed"]`).waitFor()

    // QF2: reported over the API, disputed in the page, ruled on by the organiser.
    const q2 = await matchOf(qf2.id)
    await report(q2, q2.team1.id, q2.team1.id, 1)
    const disputer = await open(`/matches/${qf2.id}`, q2.team2.id)
    await disputer.getByRole('button', { name: 'Dispute' }).click()
    await disputer.getByText('Say why you dispute the result (3 to').waitFor() // the server's refusal, in words
    await disputer.getByLabel('Why the result is wrong').fill('We won: the screenshot shows our kart first.')
    await disputer.getByRole('button', { name: 'Dispute' }).click()
    await disputer.getByTestId('dispute-reason').waitFor()
    const queued = organiser.locator(`.queue-item[data-match-id="${qf2.id}"][data-status="disputed"]`)
    await queued.waitFor()
    await watcher.locator(`.match-card[data-match-id="${qf2.id}"][data-status="disputed"]`).waitFor()
    await shoot(organiser, 'admin-matches')
    await queued.getByRole('button', { name: 'Resolve' }).click()
    const ruling = queued.getByRole('form', { name: 'Rule on the result' })
    await ruling.getByRole('radio', { name: `Team ${q2.team2.id}` }).check()
    await shoot(organiser, 'admin-resolve')
    await ruling.getByRole('button', { name: 'Rule: save this result' }).click()
    await organiser.locator(`.queue-item[data-match-id="${qf2.id}"][data-status="completed"]`).waitFor() // now under completed results
    await disputer.locator('.match-page[data-status="completed"]').waitFor()
    assert.equal((await matchOf(qf2.id)).winner, q2.team2.id)

    // QF3: the away side forfeits in its page.
    const q3 = await matchOf(qf3.id)
    const forfeiter = await open(`/matches/${qf3.id}`, q3.team2.id)
    await forfeiter.getByRole('button', { name: 'Forfeit this match' }).click()
    await forfeiter.getByRole('button', { name: 'Yes, forfeit' }).click()
    await forfeiter.locator('.match-page[data-status="completed"]').waitFor()
    assert.equal((await matchOf(qf3.id)).winner, q3.team1.id)

    // QF4: its away side does not turn up; the organiser forfeits it on /admin/matches.
    const q4 = await matchOf(qf4.id)
    const row4 = organiser.locator(`.queue-item[data-match-id="${qf4.id}"]`)
    await row4.getByRole('button', { name: `Team ${q4.team2.id} forfeits` }).click()
    await row4.getByRole('button', { name: 'Yes, forfeit' }).click()
    await organiser.locator(`.queue-item[data-match-id="${qf4.id}"][data-status="completed"]`).waitFor()
    assert.equal((await matchOf(qf4.id)).winner, q4.team1.id)

    // The rest over the API: each reported by its home side, confirmed by the away side.
    for (let n = 2; ; n++) {
      const next = (await bracket()).rounds.flatMap((r) => r.matches).find((m) => m.team1 && m.team2 && m.status === 'scheduled')
      if (!next) break
      const m = await matchOf(next.id)
      await report(m, m.team1.id, m.team1.id, n)
      await api('POST', `/matches/${m.id}/confirm`, {}, m.team2.id)
    }
    const done = await bracket()
    assert.ok(done.champion, 'a champion')

    // The watcher: the champion crowned without a reload; the tables filled.
    await watcher.locator(`.champion-banner[data-champion="${done.champion.id}"]`).waitFor()
    await shoot(watcher, 'bracket')
    await watcher.getByRole('tab', { name: 'Points Table' }).click()
    await watcher.getByRole('table').waitFor()
    await watcher.getByTestId('table-rules').filter({ hasText: 'then head-to-head, then kills' }).waitFor()
    await shoot(watcher, 'points-table')
    const redCap = await api('GET', `/tournaments/${T}/red-cap`)
    const leader = redCap.rows[0]

    // The organiser completes the season: badges are awarded.
    await organiser.getByRole('button', { name: 'Complete the season' }).click()
    await organiser.getByRole('button', { name: 'Complete', exact: true }).click()
    await organiser.getByTestId('phase').filter({ hasText: 'completed' }).waitFor()
    await watcher.getByRole('tab', { name: 'Red Cap' }).click()
    await watcher.locator(`.red-cap-banner[data-red-cap="${leader.user_id}"]`).waitFor()
    await shoot(watcher, 'red-cap')
    assert.equal(await watcher.evaluate(() => window.__noReload), true, 'the watcher never reloaded')

    // The winners' cards carry their badges.
    const teams = (await api('GET', `/tournaments/${T}/teams`)).teams
    const champ = teams.find((t) => t.id === done.champion.id)
    const cards = await open('/tournament?tab=reg')
    const season = (await api('GET', '/tournaments')).tournaments.find((t) => t.name === T).season
    const winnerCard = cards.locator(`.player-card[data-player-id="${champ.players[0].user_id}"]`)
    await winnerCard.locator('.badge', { hasText: `Season ${season} Winner` }).waitFor()
    await cards.locator(`.player-card[data-player-id="${leader.user_id}"] .badge`, { hasText: `Red Cap Season ${season}` }).waitFor()
    await winnerCard.scrollIntoViewIfNeeded()
    await cards.waitForSelector(`.player-card.is-visible[data-player-id="${champ.players[0].user_id}"]`)
    await cards.waitForTimeout(500) // the fade-in
    if (shots !== 'off') await winnerCard.screenshot({ path: `${shots}/winner-card.png` })

    // A new season opens; the finished one stays browsable through the season picker.
    await api('POST', '/admin/tournaments', { name: 'PPL8', season: season + 1, purse: 12000 }, 'admin')
    const later = await open('/tournament?tab=bracket')
    await later.getByRole('heading', { level: 1, name: 'PPL8' }).waitFor()
    await later.getByText('The fixtures appear when the organisers generate them.').waitFor()
    await later.getByLabel('Season').selectOption(T)
    await later.locator(`.champion-banner[data-champion="${done.champion.id}"]`).waitFor()
    await later.getByRole('tab', { name: 'Red Cap' }).click()
    await later.locator(`.red-cap-banner[data-red-cap="${leader.user_id}"]`).waitFor()
    assert.match(later.url(), /season=PPL7/)
    await shoot(later, 'past-season')

    // Its match page still shows the result and the proof.
    await homePage.goto(`${server.base}/matches/${qf1.id}`)
    await homePage.getByRole('img', { name: 'The end-of-match screenshot' }).waitFor()
    await shoot(homePage, 'match-completed')
    console.log(`season played in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  })
})
