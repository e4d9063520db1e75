import { api } from '@/lib/api-client'

export type DeckStateResponse = { slide: number; seq: number }

export const getDeck = () => api.get<DeckStateResponse>('/deck')

/** Admins only: followers of /ppt?follow move with it (topic `deck`, slide.changed). */
export const publishSlide = (slide: number) => api.post<DeckStateResponse>('/deck', { slide })
