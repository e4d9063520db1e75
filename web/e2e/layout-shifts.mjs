// The layout shifts of a page as it loads, with the elements that moved: a cold load (an empty cache)
// and a warm one (the same browser again), at 390 and 1440 px, over a network and a CPU slowed as a
// phone's (Chromium's DevTools throttling), so late answers land after the first paint as they do for
// real visitors. Against a running site:
//   node e2e/layout-shifts.mjs http://localhost:8080 /tournament [/tournament?tab=points …]
// LATENCY (ms, default 150), CPU (slowdown, default 4), SETTLE (ms after the load, default 4000);
// LOGIN=email PASSWORD=… measures as that account (signed in on the browser before, the cache emptied).
import { launch } from './lib/browser.mjs'
import { layoutShifts, PHONE_LIKE } from './lib/layout-shifts.mjs'

const [base, ...paths] = process.argv.slice(2)
if (!base || !paths.length) {
  console.error('usage: node e2e/layout-shifts.mjs BASE PATH...')
  process.exit(2)
}
const throttle = { ...PHONE_LIKE, latency: Number(process.env.LATENCY ?? PHONE_LIKE.latency), cpu: Number(process.env.CPU ?? PHONE_LIKE.cpu) }
const settle = Number(process.env.SETTLE ?? 4000)

let token = null
if (process.env.LOGIN) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: process.env.LOGIN, password: process.env.PASSWORD ?? 'pitlane-demo' }),
  })
  token = (await res.json()).token
}

const browser = await launch()
const worst = {}
for (const path of paths) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    const ctx = await browser.newContext({ viewport, serviceWorkers: 'block' })
    if (token) {
      // Signed in on this browser before (a page read the session), back with an empty cache.
      await ctx.addInitScript((t) => window.localStorage.setItem('token', t), token)
      const earlier = await ctx.newPage()
      await earlier.goto(`${base}/`)
      await earlier.locator('button.user-email').waitFor({ state: 'attached' })
      await (await ctx.newCDPSession(earlier)).send('Network.clearBrowserCache')
      await earlier.close()
    }
    for (const load of ['cold', 'warm']) {
      const { cls, shifts } = await layoutShifts(ctx, base + path, { settle, throttle })
      const key = `${path} ${viewport.width} ${load}`
      worst[key] = cls
      console.log(`${key}: CLS ${cls.toFixed(3)}`)
      for (const s of shifts) console.log(`  ${s.value.toFixed(4)} at ${s.at} ms\n    ${s.sources.join('\n    ')}`)
    }
    await ctx.close()
  }
}
await browser.close()
console.log(JSON.stringify(worst))
