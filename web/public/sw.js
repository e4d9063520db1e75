// Pitlane's service worker: it shows the notifications a player chose (Web Push). When a page of
// the site is open and visible, the page shows the message as a toast instead (posted to it here).
// Clicking the notification opens the page it is about; its "Turn these off" action follows the
// message's unsubscribe link, which needs no sign-in.

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

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
