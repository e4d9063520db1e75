import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { loadPage, pageOf } from './app/page-chunks'
import { listenForNotices } from './features/notifications/lib/notice-inbox'
import { registerShellWorker } from './lib/offline'
import './styles/index.css'

// A push shown as a toast may come before the toasts' chunk has loaded: kept until it has.
listenForNotices()
// Installable, and the shell and last bracket kept for a flaky connection.
registerShellWorker()

const root = createRoot(document.getElementById('root')!)
const app = (
  <StrictMode>
    <App />
  </StrictMode>
)
// The first render waits for this page's chunk (the server names it in a modulepreload, so it
// downloads beside this one): the page appears in the first render, with no spinner first, and
// what the server wrote into #root for the first paint stays until then. The render is a
// transition, so React yields to the browser while it builds the page instead of one long task.
// It also waits for the browser to have painted what the server wrote (the frame after this
// script, or at the latest 100 ms, for a tab in the background has no frames): the visitor
// sees the page's head at once, not after the script has built the whole page.
const first = pageOf(window.location.pathname)
const painted = new Promise<void>((resolve) => {
  requestAnimationFrame(() => setTimeout(resolve, 0))
  setTimeout(resolve, 100)
})
const chunk = first ? loadPage(first).catch(() => undefined) : undefined
void Promise.all([chunk, painted]).then(() => startTransition(() => root.render(app)))
