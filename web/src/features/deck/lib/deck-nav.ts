// The presentation's navigation rules (docs/site.md, "Pages"), pure so they are tested directly.
import { SLIDE_COUNT } from '@/config/constants'

export type DeckState = { slide: number; fullscreen: boolean }

const clamp = (n: number, total: number) => Math.min(total, Math.max(1, n))

/** Previous/Next buttons stop at the ends (the buttons are disabled there). */
export const canPrev = (s: DeckState) => s.slide > 1
export const canNext = (s: DeckState, total = SLIDE_COUNT) => s.slide < total
export const prev = (s: DeckState): DeckState => ({ ...s, slide: clamp(s.slide - 1, SLIDE_COUNT) })
export const next = (s: DeckState, total = SLIDE_COUNT): DeckState => ({ ...s, slide: clamp(s.slide + 1, total) })
export const goTo = (s: DeckState, n: number, total = SLIDE_COUNT): DeckState => ({ ...s, slide: clamp(n, total) })

export type KeyResult = { state: DeckState; exit?: boolean }

/**
 * Keyboard: ArrowLeft/ArrowRight wrap around; Escape leaves fullscreen, or, when not in
 * fullscreen, asks to leave the presentation (navigate to '/').
 */
export function onDeckKey(s: DeckState, key: string, total = SLIDE_COUNT): KeyResult | null {
  switch (key) {
    case 'ArrowRight':
      return { state: { ...s, slide: s.slide >= total ? 1 : s.slide + 1 } }
    case 'ArrowLeft':
      return { state: { ...s, slide: s.slide <= 1 ? total : s.slide - 1 } }
    case 'Escape':
      return s.fullscreen ? { state: { ...s, fullscreen: false } } : { state: s, exit: true }
    default:
      return null
  }
}

export function counterText(s: DeckState, total = SLIDE_COUNT) {
  return s.fullscreen ? `${s.slide} / ${total}` : `Slide ${s.slide} of ${total}`
}
