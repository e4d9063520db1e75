#!/usr/bin/env node
// The home page's interactions timed as a real browser times them (Event Timing: the 'event' entries
// web-vitals' INP is made of), on a CPU slowed 4x (CDP Emulation.setCPUThrottlingRate), so that a
// handler or a render that holds the main thread shows as it does on a phone:
//   node scripts/inp.mjs [BASE] [RUNS]
// BASE is a running server (default http://127.0.0.1:8080), RUNS the runs per viewport (default 3).
// Each run opens `/` signed out in a fresh context, waits for the app to settle, then plays the
// interactions a visitor makes there (the header's Sign Up, the modal's tabs and fields, Escape,
// the search box, the phase's own buttons, a player card, the phone's menu) and prints, per
// interaction, the longest entry (input delay + processing + the next paint), and the run's INP
// (the worst interaction: fewer than 50 of them). Prints the median of the runs' INP per viewport.
import { createRequire } from 'node:module'
import path from 'node:path'

const here = path.dirname(new URL(import.meta.url).pathname)
const base = (process.argv[2] ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
const runs = Number(process.argv[3] ?? 3)
const throttle = Number(process.env.CPU_THROTTLE ?? 4)
const { chromium } = createRequire(path.join(here, '../web/package.json'))('playwright-core')
const { CHROMIUM_FLAGS, chromiumPath } = await import(path.join(here, '../web/e2e/lib/browser.mjs'))

const VIEWPORTS = [
  { name: 'desktop 1440x900', width: 1440, height: 900 },
  { name: 'phone 390x844', width: 390, height: 844 },
]

async function timedRun(browser, viewport) {
  const ctx = await browser.newContext({ viewport, serviceWorkers: 'block' })
  const page = await ctx.newPage()
  page.setDefaultTimeout(30_000)
  await page.addInitScript(() => {
    window.__events = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!e.interactionId) continue
        const t = e.target
        const what = t ? `${t.tagName?.toLowerCase()}${t.id ? `#${t.id}` : ''}${t.className && typeof t.className === 'string' ? `.${t.className.trim().split(/\s+/).slice(0, 2).join('.')}` : ''}` : ''
        window.__events.push({
          id: e.interactionId,
          name: e.name,
          duration: e.duration,
          delay: e.processingStart - e.startTime,
          processing: e.processingEnd - e.processingStart,
          what,
        })
      }
    }).observe({ type: 'event', buffered: true, durationThreshold: 16 })
  })
  const cdp = await ctx.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle })
  await page.goto(`${base}/`, { waitUntil: 'load' })
  await page.locator('.site-header .auth-area button').first().waitFor({ state: 'attached' })
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1500)

  const steps = []
  const step = async (label, act) => {
    const before = await page.evaluate(() => window.__events.length)
    await act()
    await page.waitForTimeout(700)
    const entries = await page.evaluate((n) => window.__events.slice(n), before)
    const worst = entries.reduce((m, e) => (e.duration > (m?.duration ?? -1) ? e : m), null)
    steps.push({ label, ms: worst ? Math.round(worst.duration) : 0, worst })
  }
  const phone = viewport.width < 1000
  const openMenu = async () => {
    if (phone) await page.getByRole('button', { name: 'Open menu' }).click()
  }

  if (phone) {
    await step('open the menu', () => page.getByRole('button', { name: 'Open menu' }).click())
    await step('close the menu', () => page.getByRole('button', { name: 'Close menu' }).click())
  }
  await openMenu()
  await step('Sign Up (the modal opens)', () => page.locator('.site-header').getByRole('button', { name: 'Sign Up' }).click())
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Email').waitFor()
  await step('type an e-mail', () => dialog.getByLabel('Email').pressSequentially('rider@exa', { delay: 60 }))
  await step('the Sign In tab', () => dialog.getByRole('tab', { name: 'Sign In' }).click())
  await step('Escape (the modal closes)', () => page.keyboard.press('Escape'))
  await dialog.waitFor({ state: 'detached' }).catch(() => undefined)
  await openMenu()
  const search = page.locator('.site-header input[type=search], .site-header input[name=q]').first()
  if (await search.count()) await step('type in the search box', () => search.pressSequentially('turbo', { delay: 60 }))
  if (phone) await page.keyboard.press('Escape')
  const heroButton = page.locator('.hero .hero-actions .btn').first()
  if (await heroButton.count()) {
    const label = (await heroButton.innerText()).trim()
    const tag = await heroButton.evaluate((el) => el.tagName)
    if (tag === 'BUTTON' && !(await heroButton.isDisabled())) {
      await step(`the hero's ${label}`, () => heroButton.click())
      await page.keyboard.press('Escape')
      await page.waitForTimeout(300)
    }
  }
  const card = page.locator('#players [data-player-id]').first()
  await card.scrollIntoViewIfNeeded().catch(() => undefined)
  await page.waitForTimeout(800)
  if (await card.count()) {
    await step('a player card (its detail opens)', () => card.click())
    await step('Escape (the detail closes)', () => page.keyboard.press('Escape'))
  }
  await ctx.close()
  const inp = Math.max(0, ...steps.map((s) => s.ms))
  return { steps, inp }
}

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS })
try {
  console.log(`INP on ${base}/ with the CPU slowed ${throttle}x, ${runs} runs a viewport`)
  for (const vp of VIEWPORTS) {
    const results = []
    for (let i = 0; i < runs; i++) results.push(await timedRun(browser, { width: vp.width, height: vp.height }))
    console.log(`\n${vp.name}`)
    console.log('| interaction | ' + results.map((_, i) => `run ${i + 1} (ms)`).join(' | ') + ' | worst entry of the last run |')
    console.log('| --- |' + results.map(() => ' ---: |').join('') + ' --- |')
    for (let s = 0; s < results[0].steps.length; s++) {
      const w = results.at(-1).steps[s]?.worst
      const detail = w ? `${w.name} on ${w.what}: delay ${Math.round(w.delay)}, processing ${Math.round(w.processing)}` : ''
      console.log(`| ${results[0].steps[s].label} | ${results.map((r) => r.steps[s]?.ms ?? '').join(' | ')} | ${detail} |`)
    }
    const inps = results.map((r) => r.inp).sort((a, b) => a - b)
    console.log(`INP per run: ${results.map((r) => r.inp).join(', ')} ms; median ${inps[Math.floor(inps.length / 2)]} ms`)
  }
} finally {
  await browser.close()
}
