import { api } from '@/lib/api-client'

export type DeckStateResponse = { slide: number; seq: number }

export const getDeck = () => api.get<DeckStateResponse>('/deck')

/** The shared slide, as the presenter last published it. */
export const deckKey = ['deck'] as const
