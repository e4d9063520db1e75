// Pitlane's service worker: it keeps the site's shell and the last bracket read for a flaky
// connection, and shows the notifications a player chose (Web Push). When a page of the site is open
// and visible, the page shows the message as a toast instead (posted to it here). Clicking the
// notification opens the page it is about; its "Turn these off" action follows the message's
// unsubscribe link, which needs no sign-in.
//
// Caching: pages and the API go to the network first (the league is live: a cached answer is only
// for when the network fails); the build's hashed assets, which never change, come from the cache
// first. Kept: the pages opened (the last copy of each, and "/" as the shell for any other), the
// assets they loaded, and the last answer of the site's configuration, the seasons, and each bracket, teams and phase read.
const CACHE = 'pitlane-v1'
const SHELL = '/'
const KEPT_API = [/^\/api\/config$/, /^\/api\/tournaments$/, /^\/api\/tournaments\/[^/]+\/bracket$/, /^\/api\/tournaments\/[^/]+\/teams$/, /^\/api\/tournament\/info$/]

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.add(SHELL))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) =>
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      // A page opened later is asked for while the worker starts, not after (navigation preload).
      .then(() => self.registration.navigationPreload?.enable())
      .then(() => self.clients.claim()),
  ),
)

self.addEventListener('fetch', (event) => {
  const req = event.request
  if (req.method !== 'GET') return
  const url = new URL(req.url)
  if (url.origin !== self.location.origin) return
  if (req.mode === 'navigate' && !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/overlay/')) {
    event.respondWith(networkFirst(req, SHELL, event.preloadResponse))
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(req))
  } else if (KEPT_API.some((re) => re.test(url.pathname))) {
    event.respondWith(networkFirst(req, null))
  }
})

/**
 * The network's answer (kept for later), else the last one kept, else `fallback`'s. A page's load
 * uses the answer the browser asked for as the worker started (`preloaded`), when there is one.
 */
async function networkFirst(req, fallback, preloaded) {
  const cache = await caches.open(CACHE)
  try {
    const res = (await preloaded?.catch(() => undefined)) || (await fetch(req))
    if (res.ok) cache.put(req, res.clone()).catch(() => undefined)
    return res
  } catch (err) {
    const kept = (await cache.match(req, { ignoreSearch: req.mode === 'navigate' })) || (fallback && (await cache.match(fallback)))
    if (kept) return kept
    throw err
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(CACHE)
  const kept = await cache.match(req)
  if (kept) return kept
  const res = await fetch(req)
  if (res.ok) cache.put(req, res.clone()).catch(() => undefined)
  return res
}

self.addEventListener('push', (event) => {
  event.waitUntil(deliver(read(event.data)))
})

function read(data) {
  try {
    return data ? data.json() : {}
  } catch {
    return { title: 'Pitlane', body: data.text() }
  }
}

async function deliver(msg) {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const visible = pages.filter((c) => c.visibilityState === 'visible')
  if (visible.length > 0) {
    for (const c of visible) c.postMessage({ type: 'pitlane:notice', notice: msg })
    return
  }
  await self.registration.showNotification(msg.title || 'Pitlane', {
    body: msg.body || '',
    tag: msg.tag || undefined,
    icon: '/favicon.svg',
    data: { url: msg.url || '/', unsubscribe: msg.unsubscribe || '' },
    actions: msg.unsubscribe ? [{ action: 'off', title: 'Turn these off' }] : [],
  })
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const data = event.notification.data || {}
  const url = event.action === 'off' && data.unsubscribe ? data.unsubscribe : data.url || '/'
  event.waitUntil(self.clients.openWindow(url))
})
