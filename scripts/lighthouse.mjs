#!/usr/bin/env node
// Lighthouse scores of a league night's pages on a running server, median of RUNS runs each,
// printed as a Markdown table. Called by scripts/lighthouse.sh (which installs Lighthouse 12 into
// a temporary folder): node scripts/lighthouse.mjs BASE LIGHTHOUSE_DIR
//
// Every run starts a Debian Chromium of its own (a new profile: cold cache, no service worker) with
// a remote-debugging port; Lighthouse's Node API drives it (its default mobile profile, simulated
// throttling), and playwright-core, on the same browser, signs pages in: the session token goes
// into localStorage key `token` before the load, and Lighthouse is told not to wipe storage
// (disableStorageReset) so that the token stays.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'

const here = path.dirname(new URL(import.meta.url).pathname)
const base = (process.argv[2] ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
const lhDir = process.argv[3] ?? '/tmp/pitlane-lighthouse'
const runs = Number(process.env.RUNS ?? 3)
const port = Number(process.env.LIGHTHOUSE_CHROME_PORT ?? 9333)
const password = process.env.DEMO_PASSWORD ?? 'pitlane-demo'
const only = process.env.PAGES ? process.env.PAGES.split(',') : null

const { default: lighthouse } = await import(createRequire(path.join(lhDir, 'x.js')).resolve('lighthouse'))
const { chromium } = createRequire(path.join(here, '../web/package.json'))('playwright-core')
const { CHROMIUM_FLAGS } = await import(path.join(here, '../web/e2e/lib/browser.mjs'))

async function token(email) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!res.ok) throw new Error(`sign-in of ${email}: HTTP ${res.status} (is the demo league loaded with password ${password}?)`)
  return (await res.json()).token
}

async function firstMatchId() {
  const res = await fetch(`${base}/api/tournaments/${encodeURIComponent(await currentTournament())}/matches`)
  const id = res.ok ? (await res.json()).matches?.[0]?.id : undefined
  if (!id) throw new Error('no match in the current tournament: load the demo at phase matches (pitlane seed-demo -phase matches)')
  return id
}

async function currentTournament() {
  const res = await fetch(`${base}/api/config`).catch(() => null)
  const name = res?.ok ? (await res.json()).default_tournament : undefined
  return process.env.TOURNAMENT ?? name ?? 'PPL7'
}

const pages = [
  { path: '/' },
  { path: '/tournament' },
  { path: '/auction' },
  { path: '/captain', as: 'captain.a@demo.pitlane.local' },
  { path: '/admin', as: 'organiser@demo.pitlane.local' },
  { path: '/matches/first' },
  { path: '/ppt' },
].filter((p) => !only || only.includes(p.path))
// PAGES may also name any other public path (a player's page, a team's), measured signed out.
for (const extra of only ?? []) if (!pages.some((p) => p.path === extra) && extra !== '/matches/first') pages.push({ path: extra })
// The first match is looked up only when its page is measured: a league before its matches has none.
for (const p of pages) if (p.path === '/matches/first') p.path = `/matches/${await firstMatchId()}`

// Each run gets a Chromium of its own, as Lighthouse's own command line does: a browser kept across
// runs keeps the site's renderer process alive (the service worker the last run registered lives in
// it), and the next run then pays that process's garbage collection of the page before: a cost no
// visitor's first load has.
async function withChromium(fn) {
  const userDir = mkdtempSync(path.join(tmpdir(), 'pitlane-lh-'))
  const chrome = spawn(
    process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${userDir}`, 'about:blank'],
    { stdio: 'ignore' },
  )
  try {
    let browser
    for (let i = 0; i < 50 && !browser; i++) {
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`).catch(() => null)
      if (!browser) await new Promise((r) => setTimeout(r, 200))
    }
    if (!browser) throw new Error(`Chromium did not open port ${port}`)
    const result = await fn(browser.contexts()[0])
    await browser.close().catch(() => undefined)
    return result
  } finally {
    chrome.kill()
    await new Promise((r) => (chrome.exitCode === null ? chrome.once('exit', r) : r()))
    // Chromium's helper processes may still write for a moment after it exits: removing the
    // profile is best effort, tried again at the end.
    try {
      rmSync(userDir, { recursive: true, force: true, maxRetries: 5 })
    } catch {
      process.once('exit', () => rmSync(userDir, { recursive: true, force: true }))
    }
  }
}

/** One Lighthouse run of `url` in a fresh browser, signed in with `tok` (localStorage) when given. */
function measure(url, tok) {
  return withChromium(async (context) => {
    const setup = await context.newPage()
    await setup.goto(`${base}/robots.txt`)
    await setup.evaluate((t) => (t ? localStorage.setItem('token', t) : localStorage.clear()), tok)
    await setup.close()
    return lighthouse(url, { port, output: 'json', logLevel: 'error', disableStorageReset: true })
  })
}

{
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const rows = []
  for (const page of pages) {
    const tok = page.as ? await token(page.as) : null
    const results = []
    for (let i = 0, retries = 0; i < runs; i++) {
      const r = await measure(`${base}${page.path}`, tok)
      const lhr = r.lhr
      // REPORTS=dir keeps each run's full report (opportunities, diagnostics) as JSON.
      if (process.env.REPORTS) writeFileSync(`${process.env.REPORTS}/${page.path === '/' ? 'home' : page.path.slice(1).replace(/\W+/g, '_')}-${i + 1}.json`, JSON.stringify(lhr))
      // Chromium sometimes loses the trace's first event (NO_NAVSTART): the run is taken again, twice at most.
      if (lhr.runtimeError?.code === 'NO_NAVSTART' && retries++ < 2) { i--; continue }
      if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.message}`)
      const score = (k) => Math.round((lhr.categories[k].score ?? 0) * 100)
      results.push({
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
        lcp: lhr.audits['largest-contentful-paint'].numericValue,
        tbt: lhr.audits['total-blocking-time'].numericValue,
        cls: lhr.audits['cumulative-layout-shift'].numericValue,
        failing: Object.values(lhr.categories)
          .filter((c) => c.id !== 'performance')
          .flatMap((c) => c.auditRefs.filter((a) => a.weight > 0 && lhr.audits[a.id].score !== null && lhr.audits[a.id].score < 1))
          .map((a) => {
            const items = lhr.audits[a.id].details?.items ?? []
            const where = items.slice(0, 3).map((it) => it.node?.selector ?? it.node?.snippet ?? it.url ?? '').filter(Boolean)
            return where.length ? `${a.id} [${where.join(' | ')}]` : a.id
          }),
      })
    }
    const m = (k) => median(results.map((x) => x[k]))
    rows.push({ page: page.path + (page.as ? ' (signed in)' : ''), perf: m('performance'), a11y: m('accessibility'), bp: m('best-practices'), seo: m('seo'), lcp: m('lcp'), tbt: m('tbt'), cls: m('cls'), all: results.map((x) => x.performance).join('/'), failing: [...new Set(results.flatMap((x) => x.failing))] })
    const r = rows.at(-1)
    console.error(`${r.page}: ${r.all} ${r.failing.length ? `(failing: ${r.failing.join(', ')})` : ''}`)
  }
  console.log(`| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | performance of each run |`)
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |`)
  for (const r of rows) {
    console.log(`| \`${r.page}\` | ${r.perf} | ${r.a11y} | ${r.bp} | ${r.seo} | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${r.all} |`)
  }
}
