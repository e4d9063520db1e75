import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { deckKey, type DeckStateResponse } from './deck'

/** Admins only: followers of /ppt?follow move with it (topic `deck`, slide.changed). */
export const publishSlide = (slide: number) => api.post<DeckStateResponse>('/deck', { slide })

export function usePublishSlide() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: publishSlide, onSuccess: (state) => qc.setQueryData(deckKey, state) })
}
