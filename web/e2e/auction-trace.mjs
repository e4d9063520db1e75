// /auction receiving 20 bids a second for 5 seconds, traced in Debian's Chromium: every main-thread
// task of the burst, the longest, and how many ran over 50 ms. No Go server: the built app
// (web/dist) is served here, /api answered with a fixture auction, and /api/ws is a routed
// websocket pushing `auction.bid` events on topic `teams`, as the hub does.
//   cd web && npm run build && node e2e/auction-trace.mjs        (CPU=4 for a 4x slower CPU)
// Exits non-zero when a task of the burst runs over 50 ms.
import { launch } from './lib/browser.mjs'
import { serveDist } from './lib/serve-static.mjs'
import { fileURLToPath } from 'node:url'

const RATE = Number(process.env.RATE ?? 20)
const SECONDS = Number(process.env.SECONDS ?? 5)
const CPU = Number(process.env.CPU ?? 1)
const LONG_MS = 50

const player = (id, name, tier = 2) => ({ user_id: id, name, tier, image: null, kd: 2.1, games_played: 500, level: 40 })
const at = new Date().toISOString()
const team = (id, i) => ({
  id,
  name: `Team ${id}`,
  logo: '',
  captain: { user_id: 2 + i, name: `Cap ${id}`, image: null },
  purse: 20000,
  purse_left: 15000 - i * 500,
  slots: 5,
  free_slots: 2,
  max_bid: 9000,
  players: Array.from({ length: 3 }, (_, j) => ({ user_id: 500 + i * 10 + j, name: `P${i}${j}`, tier: 1 + j, price: 1500, image: null })),
  substitutes: [],
})
const view = {
  tournament: 'PPL7',
  status: 'auction',
  seq: 40,
  now: at,
  lot: { id: 7, player: player(30, 'FrostSpark'), base_price: 1000, increment: 10, status: 'open', high_bid: null, ends_at: new Date(Date.now() + 3_600_000).toISOString(), opened_at: at, closed_at: null, bids: [] },
  sold: Array.from({ length: 40 }, (_, i) => ({ lot_id: 100 + i, player: player(200 + i, `Sold ${i}`), team: 'ABCDEFGH'[i % 8], price: 1200 + i, at })),
  unsold: Array.from({ length: 12 }, (_, i) => ({ lot_id: 300 + i, player: player(400 + i, `Unsold ${i}`, 4), at })),
  pool: Array.from({ length: 20 }, (_, i) => player(600 + i, `Pool ${i}`, 3)),
  teams: Array.from('ABCDEFGH', team),
  rules: { min_price: 1000, max_price: 9000, slots: 5, lot_seconds: 20, late_bid_seconds: 10, tier_prices: {}, tier_bands: [] },
}
const api = {
  '/api/config': { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' },
  '/api/tournament/info': { name: 'PPL7', status: 'auction', registration_open: false, count: 60 },
  '/api/tournament/registrations': { tournament: 'PPL7', count: 0, seq: 0, players: [] },
  '/api/tournaments/PPL7/auction': view,
}

const { server, url } = await serveDist(fileURLToPath(new URL('../dist', import.meta.url)))
const browser = await launch()
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.route('**/api/**', (route) => {
    const body = api[new URL(route.request().url()).pathname]
    return body ? route.fulfill({ json: body }) : route.fulfill({ status: 401, json: { message: 'signed out' } })
  })
  let socket
  let subscribed
  const ready = new Promise((r) => (subscribed = r))
  await page.routeWebSocket(/\/api\/ws/, (ws) => {
    socket = ws
    ws.onMessage((m) => {
      const f = JSON.parse(String(m))
      if (f.type === 'subscribe' && f.topics.includes('teams')) subscribed()
      if (f.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }))
    })
  })
  const cdp = await page.context().newCDPSession(page)
  if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  await page.goto(`${url}/auction`)
  await page.getByTestId('sold-list').waitFor()
  await ready

  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] })
  await page.evaluate(() => console.timeStamp('burst-start'))
  const total = RATE * SECONDS
  for (let n = 0; n < total; n++) {
    const amount = 1000 + 10 * (n + 1)
    const t = 'ABCDEFGH'[n % 8]
    socket.send(JSON.stringify({ type: 'event', topic: 'teams', seq: 41 + n, event: 'auction.bid', ts: new Date().toISOString(), data: { tournament: 'PPL7', lot_id: 7, bid: { team: t, amount, at: new Date().toISOString() }, high_bid: { team: t, amount }, ends_at: view.lot.ends_at } }))
    await new Promise((r) => setTimeout(r, 1000 / RATE))
  }
  await page.getByTestId('high-bid').filter({ hasText: (1000 + 10 * total).toLocaleString('en') }).waitFor()
  await page.waitForTimeout(300)
  await page.evaluate(() => console.timeStamp('burst-end'))
  const trace = JSON.parse((await browser.stopTracing()).toString()).traceEvents

  const mark = (m) => trace.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === m)
  const start = mark('burst-start')
  const end = mark('burst-end')
  const main = trace.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === start.pid)
  const tasks = trace
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === start.pid && e.tid === main.tid && e.ts >= start.ts && e.ts <= end.ts)
    .map((e) => e.dur / 1000)
  const busy = tasks.reduce((a, b) => a + b, 0)
  const long = tasks.filter((d) => d > LONG_MS)
  const sorted = [...tasks].sort((a, b) => a - b)
  const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  console.log(
    `${total} bids at ${RATE}/s, CPU ${CPU}x: ${tasks.length} main-thread tasks, busy ${busy.toFixed(0)} ms of ${((end.ts - start.ts) / 1000).toFixed(0)} ms, ` +
      `p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, longest ${p(1).toFixed(1)} ms, over ${LONG_MS} ms: ${long.length}`,
  )
  if (process.env.BREAKDOWN) {
    const by = {}
    for (const e of trace) if (e.ph === 'X' && e.pid === start.pid && e.tid === main.tid && e.ts >= start.ts && e.ts <= end.ts && e.name !== 'RunTask') by[e.name] = (by[e.name] ?? 0) + e.dur / 1000
    const paints = trace.filter((e) => e.name === 'Paint' && e.ph === 'X' && e.pid === start.pid && e.ts >= start.ts && e.ts <= end.ts)
    const big = {}
    for (const e of paints) {
      const k = `${e.args?.data?.nodeId}:${JSON.stringify(e.args?.data?.clip)}`
      big[k] = (big[k] ?? 0) + e.dur / 1000
    }
    console.log(`${paints.length} paints`, Object.entries(big).sort((a, b) => b[1] - a[1]).slice(0, 5))
    console.log(Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', '))
  }
  process.exitCode = long.length ? 1 : 0
} finally {
  await browser.close()
  server.close()
}
