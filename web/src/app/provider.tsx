import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { installUnauthorizedHandler, useTokenSync } from '@/lib/auth'
import { LiveProvider } from '@/lib/live'
import { makeQueryClient } from '@/lib/query-client'

function TokenSync() {
  useTokenSync()
  return null
}

export function AppProvider({ children, client, live = true }: { children: ReactNode; client?: QueryClient; live?: boolean }) {
  const [qc] = useState(() => {
    const c = client ?? makeQueryClient()
    installUnauthorizedHandler(c)
    return c
  })
  return (
    <QueryClientProvider client={qc}>
      <TokenSync />
      <LiveProvider enabled={live}>{children}</LiveProvider>
    </QueryClientProvider>
  )
}
