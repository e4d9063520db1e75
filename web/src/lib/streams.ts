// Who is live (GET /api/streams), kept current by stream.changed on the public `streams` topic, and
// the player's own channel link (Twitch's OAuth2; DELETE /api/me/channels/twitch).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAppConfig } from '@/config/app-config'
import { api } from '@/lib/api-client'

export type Stream = {
  channel: string
  platform: 'twitch'
  display_name: string
  live: boolean
  title: string
  viewers: number
  thumbnail?: string
  started_at?: string
  match_id?: number
  player_id?: number
  /** One of a running tournament's official channels: the league's cast. */
  official: boolean
  /** Twitch has not confirmed this state lately: it is the last known one. */
  stale: boolean
  checked_at?: string
}

export const streamsKey = ['streams'] as const
export const myChannelsKey = ['me', 'channels'] as const

export const getStreams = (signal?: AbortSignal) => api.get<Stream[]>('/streams', signal)

/** The list, when the site has streams at all (else nothing is asked and nothing shown). */
export function useStreams() {
  const { streams: on } = useAppConfig()
  return useQuery({ queryKey: streamsKey, queryFn: ({ signal }) => getStreams(signal), enabled: !!on, staleTime: 60_000 })
}

const group = (s: Stream) => (s.official ? 0 : s.match_id ? 1 : 2)

/** The page's order: live first; the league's casts, then players in today's matches, then the rest; by viewers. */
export function sortStreams(list: Stream[]): Stream[] {
  return [...list].sort(
    (a, b) => Number(b.live) - Number(a.live) || group(a) - group(b) || b.viewers - a.viewers || a.channel.localeCompare(b.channel),
  )
}

/** The list after a stream.changed: the channel replaced, added, or dropped once it is neither live nor official. */
export function applyStreamChange(list: Stream[] | undefined, changed: Stream): Stream[] | undefined {
  if (!list) return list
  const rest = list.filter((s) => !(s.channel === changed.channel && s.platform === changed.platform))
  return changed.live || changed.official ? sortStreams([...rest, changed]) : rest
}

/** The live stream of a match or a player, if any. */
export function liveFor(list: Stream[] | undefined, by: { matchId?: number; playerId?: number }): Stream | undefined {
  return list?.find((s) => s.live && ((by.matchId !== undefined && s.match_id === by.matchId) || (by.playerId !== undefined && s.player_id === by.playerId)))
}

/** The signed-in player's linked channels. */
export function useMyChannels(enabled: boolean) {
  return useQuery({ queryKey: myChannelsKey, queryFn: () => api.get<{ channels: Stream[] }>('/me/channels'), enabled })
}

/** Starts linking Twitch: asks for the authorize URL, then `go`es there (the page leaves). */
export function useLinkTwitch(go: (url: string) => void) {
  return useMutation({ mutationFn: () => api.get<{ url: string }>('/auth/twitch/start'), onSuccess: ({ url }) => go(url) })
}

export function useUnlinkTwitch() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => api.delete<{ message: string }>('/me/channels/twitch'),
    onSuccess: () => qc.invalidateQueries({ queryKey: myChannelsKey }),
  })
}
