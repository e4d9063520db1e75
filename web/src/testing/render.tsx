import { QueryClient } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement, ReactNode } from 'react'
import { Route, Switch, useLocation } from '@/lib/router'
import { AppProvider } from '@/app/provider'
import { userQueryKey, type User } from '@/lib/auth'
import { TOKEN_KEY } from '@/lib/api-client'

/** Where a test's page opens: a path, or its parts with a history state. */
export type InitialEntry = string | { pathname: string; search?: string; hash?: string; state?: unknown }

/**
 * Puts jsdom's own location at the entry: the app's router follows the browser's location, so
 * tests navigate, go back and read the anchor and history state as a browser does.
 */
export function visit(entry: InitialEntry) {
  const e = typeof entry === 'string' ? { pathname: entry } : entry
  window.history.replaceState(e.state ?? null, '', `${e.pathname}${e.search ?? ''}${e.hash ?? ''}`)
}

export function LocationProbe() {
  const loc = useLocation()
  return <output data-testid="location">{`${loc.pathname}${loc.search}${loc.hash}`}</output>
}

type Options = {
  route?: string
  user?: User | null
  path?: string
  extraRoutes?: ReactNode
  /** Answers already in the cache before the first render, as [query key, data]. */
  queries?: [readonly unknown[], unknown][]
}

/** Renders at `route` with the real providers (live socket off) and an optional session. */
export function renderApp(ui: ReactElement, { route = '/', user = null, path = '*', extraRoutes, queries = [] }: Options = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } })
  if (user) {
    window.localStorage.setItem(TOKEN_KEY, 'test-token')
    client.setQueryData(userQueryKey, user)
  } else {
    client.setQueryData(userQueryKey, null)
  }
  client.setQueryData(['config'], { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' })
  for (const [key, data] of queries) client.setQueryData(key, data)
  visit(route)
  const utils = render(
    <AppProvider client={client} live={false}>
      <Switch>
        {extraRoutes}
        <Route path={path}>{ui}</Route>
      </Switch>
      <LocationProbe />
    </AppProvider>,
  )
  return { ...utils, client }
}
