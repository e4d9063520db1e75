// The server paints each page's header from internal/api/firstpaint.html before the app has run;
// the app's Header then renders in its place. Where they differ the header would jump as the app
// takes over: this checks the template against the Header the app renders while it does not yet
// know whether the visitor is signed in.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { QueryClient } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { Header } from '@/components/layout/header'
import { TOKEN_KEY } from '@/lib/api-client'
import { resetFirstPaintSeason } from '@/lib/first-paint-season'
import { visit } from '@/testing/render'
import HomeRoute from './routes/home'

// The tests run in web/.
const template = readFileSync(resolve(process.cwd(), '../internal/api/firstpaint.html'), 'utf8')
// The home page's hero as the server paints it for seasons of every kind, with the data the document
// carries for the app (internal/api/pagedocs_test.go writes it).
const heroes = JSON.parse(readFileSync(resolve(process.cwd(), '../internal/api/testdata/home-hero.json'), 'utf8')) as {
  case: string
  data: unknown
  html: string
}[]

/**
 * The home page's hero as the app first renders it from the season's data the server wrote beside
 * #root (none: the season could not be read), before any of its own reads have come back: its words,
 * up to the line under the hero (the buttons and the season as it stands are the app's own).
 */
function appHero(data: unknown) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise(() => undefined))
  resetFirstPaintSeason()
  const script = document.createElement('script')
  script.type = 'application/json'
  script.id = 'season-data'
  script.textContent = JSON.stringify(data)
  if (data) document.body.appendChild(script)
  visit('/')
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const { container, unmount } = render(
    <AppProvider client={client} live={false}>
      <HomeRoute />
    </AppProvider>,
  )
  const hero = container.querySelector('section#home')!.cloneNode(true) as HTMLElement
  while (hero.lastElementChild && !hero.lastElementChild.classList.contains('hero-sub')) hero.lastElementChild.remove()
  unmount()
  script.remove()
  resetFirstPaintSeason()
  return hero.outerHTML
}

/** The markup as a browser holds it (the server's escapes and React's differ in form only). */
function parsed(html: string) {
  const t = document.createElement('template')
  t.innerHTML = html
  return (t.content.firstElementChild as HTMLElement).outerHTML
}

/** The header as the app renders it at `path`, with a session token whose profile has not come yet. */
function appHeader(path: string) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise(() => undefined))
  window.localStorage.setItem(TOKEN_KEY, 'pending')
  visit(path)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const { container } = render(
    <AppProvider client={client} live={false}>
      <Header />
    </AppProvider>,
  )
  window.localStorage.removeItem(TOKEN_KEY)
  return container.querySelector('header.site-header')!.outerHTML
}

/** Drops the links' list items, which the template writes in a loop over the server's list. */
const withoutLinks = (html: string) => html.replace(/(<ul class="nav-links">).*?(<\/ul>)/s, '$1$2')

describe('the first paint', () => {
  it('writes the header the app renders while the session loads', () => {
    const server = template.match(/<header class="site-header[\s\S]*?<\/header>/)![0]
    expect(withoutLinks(server)).toBe(withoutLinks(appHeader('/auction')))
  })

  it('writes each link as the app does, the current page marked', () => {
    const header = appHeader('/auction')
    // The form internal/api/pagedocs_test.go expects of the server's links.
    expect(header).toContain('<a aria-current="page" href="/auction" class="nav-link active">Auction</a>')
    expect(header).toContain('<a href="/tournament" class="nav-link ">Tournament</a>')
    expect(template).toContain('<li><a {{if .Active}}aria-current="page" {{end}}href="{{.To}}" class="nav-link {{if .Active}}active{{end}}">{{.Label}}</a></li>')
  })
})

describe("the home page's first paint", () => {
  it.each(heroes.map((h) => [h.case, h] as const))('paints the hero the app renders: %s', (_, h) => {
    expect(appHero(h.data)).toBe(parsed(h.html))
  })
})
