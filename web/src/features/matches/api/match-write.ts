// What the writes about one match share (each write has a file of its own: post-room, set-time,
// report-result, ...), apart from the league's reads so a page that only reads loads no mutation code.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Match } from '../types'
import { matchKey } from './league'

type MatchAnswer = { match: Match }

/** The path of a call about one match. */
export const matchPath = (id: number, what: string) => `/matches/${id}/${what}`

/** Posts a call about one match; its answer is the match as the caller may see it. */
export const postMatch = (path: string, body?: unknown) => api.post<MatchAnswer>(path, body).then((d) => d.match)

/** A write about one match: its answer replaces the match in the cache at once. */
export function useMatchWrite<V>(id: number, write: (v: V) => Promise<Match>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: write, onSuccess: (match) => qc.setQueryData(matchKey(id), match) })
}

