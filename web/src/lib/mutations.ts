// Helpers for a panel with several writes (useMutation hooks of the features' api/ folders).
import { QueryClient, QueryClientContext, useMutation, type UseMutationOptions } from '@tanstack/react-query'
import { useContext } from 'react'
import { errorMessage } from './api-client'

/** What a panel reads of one of its writes. */
export type Write = { error: unknown; isPending: boolean; submittedAt: number }

/** Whether any of the panel's writes is running. */
export const anyPending = (...writes: Write[]) => writes.some((w) => w.isPending)

/**
 * The failure to show of a panel with several writes: the last one started, in the server's words
 * (else its fallback), or '' when it succeeded or is running.
 */
export function lastFailure(...writes: [Write, string][]): string {
  const [last, fallback] = writes.reduce((a, b) => (b[0].submittedAt > a[0].submittedAt ? b : a))
  return last.error ? errorMessage(last.error, fallback) : ''
}

/** The failure of the last write started, kept whole (the problems it lists), with its fallback. */
export function lastError(...writes: [Write, string][]): { error: unknown; fallback: string } {
  const [last, fallback] = writes.reduce((a, b) => (b[0].submittedAt > a[0].submittedAt ? b : a))
  return { error: last.error, fallback }
}

// A write that needs no cache: the sign-in forms and the stats review also stand on their own,
// outside the app's QueryClientProvider (as their tests render them); there they run on a client of
// their own.
let standalone: QueryClient | null = null

/** useMutation on the app's client, or on a standalone one where there is none. */
export function useStandaloneMutation<TData, TVariables = void>(options: UseMutationOptions<TData, Error, TVariables>) {
  const client = useContext(QueryClientContext) ?? (standalone ??= new QueryClient())
  return useMutation(options, client)
}
