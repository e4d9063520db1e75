// Debian's Chromium driven by playwright-core (no downloaded browser builds).
import { chromium } from 'playwright-core'
import { existsSync } from 'node:fs'

export const WIDTHS = [390, 768, 1440]

export function chromiumPath() {
  const p = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
  if (!existsSync(p)) throw new Error(`Chromium not found at ${p} (apt-get install chromium, or set CHROMIUM_PATH)`)
  return p
}

/** The flags every run of Debian's Chromium here takes (the e2e suites, scripts/lighthouse.mjs). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
]

export function launch() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_FLAGS,
  })
}

/** Scrolls through the page so scroll-revealed sections and lazy images show in a full-page shot. */
export async function revealAll(page) {
  await page.evaluate(async () => {
    const step = Math.max(200, Math.floor(window.innerHeight * 0.8))
    for (let y = 0; y < document.body.scrollHeight; y += step) {
      window.scrollTo(0, y)
      await new Promise((r) => setTimeout(r, 60))
    }
    document.querySelectorAll('.reveal').forEach((el) => el.classList.add('revealed'))
    document.querySelectorAll('.fade-card').forEach((el) => el.classList.add('is-visible'))
    window.scrollTo(0, 0)
    await new Promise((r) => setTimeout(r, 150))
  })
}

export async function shoot(page, dir, name, { fullPage = true } = {}) {
  const width = page.viewportSize().width
  const file = `${dir}/${name}-${width}.png`
  await page.screenshot({ path: file, fullPage })
  return file
}

/**
 * Full-page shots of the page as it stands at 1440 and at 390 px (`${dir}/${name}-1440.png` and
 * `-390.png`), the viewport put back after; nothing when dir is 'off'. Before them the focus is let
 * go, scroll-revealed sections are shown and the page is scrolled to the top; `at` shoots the
 * viewport with that element in its middle instead of the full page.
 */
export async function shootBothWidths(page, dir, name, { at = null } = {}) {
  if (dir === 'off') return
  const size = page.viewportSize()
  await page.evaluate(() => {
    document.activeElement?.blur()
    document.querySelectorAll('.reveal').forEach((el) => el.classList.add('revealed'))
    document.querySelectorAll('.fade-card').forEach((el) => el.classList.add('is-visible'))
    window.scrollTo(0, 0)
  })
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    const now = page.viewportSize()
    if (now.width !== width || now.height !== height) {
      await page.setViewportSize({ width, height })
      await page.waitForTimeout(200)
    }
    if (at) await at.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: !at })
  }
  await page.setViewportSize(size)
}
