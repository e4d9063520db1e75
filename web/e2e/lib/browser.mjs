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
