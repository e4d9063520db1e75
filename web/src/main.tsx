import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { loadPage, pageOf } from './app/page-chunks'
import { listenForNotices } from './features/notifications/lib/notice-inbox'
import './styles/index.css'

// A push shown as a toast may come before the toasts' chunk has loaded: kept until it has.
listenForNotices()

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
const first = pageOf(window.location.pathname)
void (first ? loadPage(first).catch(() => undefined) : Promise.resolve()).then(() => startTransition(() => root.render(app)))
