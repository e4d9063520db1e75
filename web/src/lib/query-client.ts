import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './api-client'

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Offline, a read still goes out once: the service worker answers it with the last copy kept
        // (public/sw.js), where React Query's default would wait for the network with a spinner.
        networkMode: 'offlineFirst',
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
    },
  })
}
