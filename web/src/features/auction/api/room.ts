import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveTopic } from '@/lib/live'
import type { RoomMessage, RoomView } from '../types'

export const roomKey = (tournament: string) => ['tournament', tournament, 'captains-room'] as const

export const roomPath = (tournament: string) => `/tournaments/${encodeURIComponent(tournament)}/captains/messages`

/** Adds a message once (it comes back both as the POST's answer and as the live event). */
export function addMessage(view: RoomView, m: RoomMessage, seq?: number): RoomView {
  const seen = view.messages.some((x) => x.id === m.id)
  return { ...view, seq: seq !== undefined ? Math.max(seq, view.seq) : view.seq, messages: seen ? view.messages : [...view.messages, m] }
}

/** The live topic of a tournament's captains room: one room per season. */
export const roomTopic = (tournament: string) => `captains:${tournament}`

/** The captains room (captains and organisers): history on join, then the topic `captains:{tournament}`. */
export function useCaptainsRoom(tournament: string, enabled: boolean) {
  const qc = useQueryClient()
  const key = roomKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<RoomView>(roomPath(tournament), signal),
    enabled,
    staleTime: 30_000,
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    roomTopic(tournament),
    {
      onEvent: (ev) => {
        const data = ev.data as { tournament?: string; message?: RoomMessage }
        if (ev.event !== 'room.message' || !data?.message) return
        qc.setQueryData<RoomView>(key, (old) => (old && ev.seq > old.seq ? addMessage(old, data.message!, ev.seq) : old))
      },
      onResync: reload,
      onReconnect: reload,
    },
    { enabled: enabled && query.data !== undefined, since: query.data?.seq },
  )
  return query
}
