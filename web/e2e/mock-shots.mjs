// Screenshots of every page at 390, 768 and 1440 px against a mocked API (no Go server needed):
//   npm run build && node e2e/mock-shots.mjs      → e2e/screenshots/mock/*.png
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { launch, revealAll, shoot, WIDTHS } from './lib/browser.mjs'
import { installMocks, makePlayers, makeTeams } from './lib/mock-api.mjs'
import { serveDist } from './lib/serve-static.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, 'screenshots', 'mock')
await mkdir(out, { recursive: true })
const { server, url } = await serveDist(join(here, '..', 'dist'))
const browser = await launch()
const only = process.argv[2]

const baseUser = {
  id: 1,
  email: 'speedy@example.com',
  name: 'Speedy',
  role: 'user',
  email_verified: true,
  discord_username: 'speedy',
  discord_verified: true,
  sk_stats_verified: false,
  sk_stats_uploaded: false,
  tournament_registered: false,
  stats_data: null,
}

async function newPage(width, { user = null, height = 900 } = {}) {
  const ctx = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, reducedMotion: 'reduce' })
  const page = await ctx.newPage()
  page.on('pageerror', (e) => console.error(`[pageerror ${width}]`, e.message))
  page.on('console', (m) => m.type() === 'error' && console.error(`[console ${width}]`, m.text()))
  const players = makePlayers(12)
  const state = { user, players, teams: makeTeams(players) }
  const live = await installMocks(page, state)
  if (user) await ctx.addInitScript(() => window.localStorage.setItem('token', 'mock-token'))
  return { page, ctx, state, live }
}

const shots = []
const run = async (name, fn) => {
  if (only && !name.includes(only)) return
  for (const w of WIDTHS) {
    const t = Date.now()
    await fn(w)
    shots.push(`${name}@${w} ${Date.now() - t}ms`)
  }
}

await run('home', async (w) => {
  const { page, ctx } = await newPage(w)
  await page.goto(`${url}/`)
  await page.getByText('Blaze').first().waitFor()
  await revealAll(page)
  await shoot(page, out, 'home')
  if (w === 390) {
    await page.getByRole('button', { name: 'Open menu' }).click()
    await shoot(page, out, 'home-menu', { fullPage: false })
  }
  await ctx.close()
})

await run('tournament', async (w) => {
  const { page, ctx } = await newPage(w)
  for (const tab of ['description', 'category', 'teams', 'reg', 'points', 'redcap']) {
    await page.goto(`${url}/tournament${tab === 'description' ? '' : `?tab=${tab}`}`)
    await page.getByRole('tabpanel').waitFor()
    await page.waitForTimeout(400)
    await revealAll(page)
    await shoot(page, out, `tournament-${tab}`)
  }
  await page.getByRole('tab', { name: 'Reg Player' }).click()
  await page.getByRole('button', { name: 'Blaze: details' }).click()
  await page.waitForTimeout(300)
  await shoot(page, out, 'tournament-player-modal', { fullPage: false })
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Sign in as Captain' }).click()
  await page.waitForTimeout(300)
  await shoot(page, out, 'tournament-captain-modal', { fullPage: false })
  await ctx.close()
})

await run('contact', async (w) => {
  const { page, ctx } = await newPage(w)
  await page.goto(`${url}/contact`)
  await page.getByRole('heading', { name: 'Projects' }).waitFor()
  await shoot(page, out, 'contact')
  await ctx.close()
})

await run('ppt', async (w) => {
  const { page, ctx } = await newPage(w, { height: w === 390 ? 844 : 900 })
  await page.goto(`${url}/ppt`)
  await page.getByText('Slide 1 of 10').waitFor()
  await shoot(page, out, 'ppt-1', { fullPage: true })
  for (const n of [3, 4, 5, 7, 9, 10]) {
    await page.getByRole('button', { name: new RegExp(`^Go to slide ${n}:`) }).click()
    await page.mouse.move(0, 0)
    await page.waitForTimeout(150)
    await shoot(page, out, `ppt-${n}`, { fullPage: true })
  }
  await page.getByTestId('deck-stage').dblclick()
  await page.waitForTimeout(300)
  await shoot(page, out, 'ppt-fullscreen', { fullPage: false })
  await ctx.close()
})

await run('notfound', async (w) => {
  const { page, ctx } = await newPage(w)
  await page.goto(`${url}/no-such-page`)
  await page.getByRole('heading', { name: 'Off the track' }).waitFor()
  await shoot(page, out, 'not-found')
  await ctx.close()
})

await run('auth', async (w) => {
  const { page, ctx } = await newPage(w)
  await page.goto(`${url}/`)
  if (w < 900) await page.getByRole('button', { name: 'Open menu' }).click()
  await page.getByRole('banner').getByRole('button', { name: 'Sign Up' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Confirm password').waitFor()
  await dialog.getByLabel('Discord username').fill('speedy')
  await dialog.getByLabel('Email').fill('speedy@example.com')
  await dialog.getByLabel('Password', { exact: true }).fill('secret123')
  await dialog.getByLabel('Confirm password').fill('secret124')
  await dialog.getByRole('button', { name: 'Sign Up' }).click()
  await dialog.getByText('Passwords do not match').waitFor()
  await shoot(page, out, 'auth-signup-error', { fullPage: false })
  await dialog.getByLabel('Confirm password').fill('secret123')
  await dialog.getByRole('button', { name: 'Sign Up' }).click()
  await dialog.getByLabel(/Verification code/).waitFor()
  await dialog.getByRole('button', { name: 'Resend OTP' }).click()
  await dialog.getByText('OTP sent successfully!').waitFor()
  await shoot(page, out, 'auth-otp', { fullPage: false })
  await ctx.close()
})

await run('stats', async (w) => {
  const { page, ctx, live } = await newPage(w, { user: { ...baseUser } })
  await page.goto(`${url}/?showStatsUpload=true`)
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'UPLOAD STATS' }).waitFor()
  await shoot(page, out, 'stats-picker', { fullPage: false })
  await dialog.locator('input[type=file]').setInputFiles(join(here, 'fixtures', 'sk-stats.png'))
  await dialog.getByAltText('Preview of the chosen stats screenshot').waitFor()
  await shoot(page, out, 'stats-preview', { fullPage: false })
  await dialog.getByRole('button', { name: 'UPLOAD STATS' }).click()
  live.push('user', 'stats.progress', { stage: 'extracting' })
  await dialog.getByRole('button', { name: 'Register for PPL7' }).waitFor()
  await shoot(page, out, 'stats-card', { fullPage: false })
  await dialog.getByRole('button', { name: 'Register for PPL7' }).click()
  await dialog.getByText('Registration Successful!').waitFor()
  await shoot(page, out, 'stats-registered-popup', { fullPage: false })
  await page.waitForURL('**/tournament', { timeout: 9000 })
  await ctx.close()
})

await run('registered', async (w) => {
  const { page, ctx } = await newPage(w, { user: { ...baseUser, sk_stats_uploaded: true, tournament_registered: true } })
  await page.goto(`${url}/`)
  await page.getByRole('button', { name: 'REGISTER' }).click()
  await page.getByRole('dialog').getByText('You are already registered!').waitFor()
  await shoot(page, out, 'auth-already-registered', { fullPage: false })
  await page.keyboard.press('Escape')
  if (w < 900) await page.getByRole('button', { name: 'Open menu' }).click()
  await page.getByRole('button', { name: 'speedy@example.com' }).click()
  await page.getByRole('dialog').getByText('Registered for the tournament').waitFor()
  await shoot(page, out, 'auth-profile', { fullPage: false })
  await ctx.close()
})

console.log(shots.join('\n'))
await browser.close()
server.close()
