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
import { visit } from '@/testing/render'

// The tests run in web/.
const template = readFileSync(resolve(process.cwd(), '../internal/api/firstpaint.html'), 'utf8')

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
