import { QueryClient } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement, ReactNode } from 'react'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { AppProvider } from '@/app/provider'
import { userQueryKey, type User } from '@/lib/auth'
import { TOKEN_KEY } from '@/lib/api-client'

export function LocationProbe() {
  const loc = useLocation()
  return <output data-testid="location">{`${loc.pathname}${loc.search}${loc.hash}`}</output>
}

type Options = { route?: string; user?: User | null; path?: string; extraRoutes?: ReactNode }

/** Renders with the real providers (live socket off), a memory router and an optional session. */
export function renderApp(ui: ReactElement, { route = '/', user = null, path = '*', extraRoutes }: Options = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } })
  if (user) {
    window.localStorage.setItem(TOKEN_KEY, 'test-token')
    client.setQueryData(userQueryKey, user)
  } else {
    client.setQueryData(userQueryKey, null)
  }
  client.setQueryData(['config'], { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr' })
  const utils = render(
    <AppProvider client={client} live={false}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
          {extraRoutes}
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </AppProvider>,
  )
  return { ...utils, client }
}
