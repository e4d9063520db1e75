import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { deckKey, type DeckStateResponse } from './deck'

/** Admins only: followers of /ppt?follow move with it (topic `deck`, slide.changed). */
export const publishSlide = (slide: number) => api.post<DeckStateResponse>('/deck', { slide })

/**
 * The presenter's moves are sent one after another, in the order made: two quick arrow presses
 * sent at once could reach the server in either order and leave the followers one slide behind.
 */
export function usePublishSlide() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: publishSlide, scope: { id: 'deck-publish' }, onSuccess: (state) => qc.setQueryData(deckKey, state) })
}
