// A page load's layout shifts as Chromium reports them ('layout-shift' entries of a PerformanceObserver,
// each with the elements that moved and their boxes before and after), and its CLS as web-vitals
// counts it: the largest session window of shifts (each less than 1 s after the last, at most 5 s long)
// not caused by input.

/**
 * The network and CPU of a phone on a fair connection (Chromium's DevTools throttling): late answers land
 * after the first paint, as they do for real visitors, not before it as on this machine's loopback.
 */
export const PHONE_LIKE = { latency: 150, download: (1.6 * 1024 * 1024) / 8, upload: (750 * 1024) / 8, cpu: 4 }

/**
 * Loads `url` in a new page of `ctx` (slowed as `throttle` says, unless null) and waits `settle` ms after
 * the load for late content.
 */
export async function layoutShifts(ctx, url, { settle = 3000, throttle = PHONE_LIKE } = {}) {
  const page = await ctx.newPage()
  if (throttle) {
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: throttle.latency,
      downloadThroughput: throttle.download,
      uploadThroughput: throttle.upload,
    })
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpu })
  }
  await page.addInitScript(() => {
    const name = (n) => {
      if (!n || n.nodeType !== 1) return n?.nodeName ?? '?'
      const cls = typeof n.className === 'string' && n.className.trim() ? `.${n.className.trim().split(/\s+/).join('.')}` : ''
      const text = (n.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${cls}${text ? ` "${text}"` : ''}`
    }
    const rect = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`
    window.__layoutShifts = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__layoutShifts.push({
          value: e.value,
          at: Math.round(e.startTime),
          input: e.hadRecentInput,
          sources: (e.sources ?? []).map((s) => `${name(s.node)}: ${rect(s.previousRect)} → ${rect(s.currentRect)}`),
        })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForTimeout(settle)
  const shifts = (await page.evaluate(() => window.__layoutShifts)).filter((s) => !s.input)
  await page.close()
  return { cls: sessionMax(shifts), shifts }
}

/** CLS: the largest sum of a session window (gaps under 1 s, the window under 5 s). */
export function sessionMax(shifts) {
  let best = 0
  let sum = 0
  let first = -Infinity
  let last = -Infinity
  for (const s of shifts) {
    if (s.at - last < 1000 && s.at - first < 5000) {
      sum += s.value
    } else {
      sum = s.value
      first = s.at
    }
    last = s.at
    best = Math.max(best, sum)
  }
  return best
}
