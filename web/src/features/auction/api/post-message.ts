import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { RoomMessage, RoomView } from '../types'
import { addMessage, roomKey, roomPath } from './room'

export const postMessage = (tournament: string, text: string) => api.post<{ message: RoomMessage }>(roomPath(tournament), { text })

/** Posts to the captains room; the message shows at once (and once, when its live event follows). */
export function usePostMessage(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (text: string) => postMessage(tournament, text),
    onSuccess: ({ message }) => qc.setQueryData<RoomView>(roomKey(tournament), (old) => (old ? addMessage(old, message) : old)),
  })
}
