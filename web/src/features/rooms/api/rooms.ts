// The team and match rooms: the caller's list with unread counts, a room's history (newest page
// first) kept live on its topic `room:{id}`, and the writes.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveTopic } from '@/lib/live'

export type ChatRoom = {
  id: number
  kind: 'team' | 'match'
  tournament: string
  title: string
  team?: string
  match_id?: number
  slow_seconds: number
  unread: number
  last_at: string | null
}

export type ChatMessage = {
  id: number
  room_id: number
  user_id: number | null
  author: string
  text: string
  at: string
  edited_at: string | null
}

/** A room's history as the page shows it: oldest first, at the topic's seq. */
export type RoomPage = { room: ChatRoom; seq: number; messages: ChatMessage[]; next?: string }

export const roomsKey = ['rooms'] as const
export const roomKey = (id: number) => ['rooms', id] as const
export const roomTopic = (id: number) => `room:${id}`
export const MESSAGE_MAX = 1000

export function useRooms() {
  return useQuery({ queryKey: roomsKey, queryFn: ({ signal }) => api.get<{ rooms: ChatRoom[] }>('/rooms', signal) })
}

/** Puts m in the page once, in order; an edit replaces the message of its id. */
export function upsertMessage(page: RoomPage, m: ChatMessage, seq?: number): RoomPage {
  const rest = page.messages.filter((x) => x.id !== m.id)
  const messages = [...rest, m].sort((a, b) => a.id - b.id)
  return { ...page, seq: seq !== undefined ? Math.max(seq, page.seq) : page.seq, messages }
}

export function dropMessage(page: RoomPage, id: number, seq?: number): RoomPage {
  return { ...page, seq: seq !== undefined ? Math.max(seq, page.seq) : page.seq, messages: page.messages.filter((x) => x.id !== id) }
}

/** A room's newest page, then its topic: new, edited and deleted messages as they happen. */
export function useRoom(id: number) {
  const qc = useQueryClient()
  const key = roomKey(id)
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const p = await api.get<RoomPage>(`/rooms/${id}/messages`, signal)
      void qc.invalidateQueries({ queryKey: roomsKey, exact: true }) // reading it cleared its unread count
      return { ...p, messages: [...p.messages].reverse() }
    },
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    roomTopic(id),
    {
      onEvent: (ev) => {
        const data = ev.data as { message?: ChatMessage; id?: number }
        qc.setQueryData<RoomPage>(key, (old) => {
          if (!old || ev.seq <= old.seq) return old
          if (ev.event === 'room.message' && data.message) return upsertMessage(old, data.message, ev.seq)
          if (ev.event === 'room.message.deleted' && data.id) return dropMessage(old, data.id, ev.seq)
          return old
        })
      },
      onResync: reload,
      onReconnect: reload,
    },
    { enabled: query.data !== undefined, since: query.data?.seq },
  )
  return query
}

export function useSendMessage(id: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (text: string) => api.post<{ message: ChatMessage }>(`/rooms/${id}/messages`, { text }),
    onSuccess: ({ message }) => qc.setQueryData<RoomPage>(roomKey(id), (old) => (old ? upsertMessage(old, message) : old)),
  })
}

export function useDeleteMessage(id: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (mid: number) => api.delete<{ deleted: number }>(`/rooms/${id}/messages/${mid}`),
    onSuccess: ({ deleted }) => qc.setQueryData<RoomPage>(roomKey(id), (old) => (old ? dropMessage(old, deleted) : old)),
  })
}
