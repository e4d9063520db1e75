import { describe, expect, it } from 'vitest'
import { canNext, canPrev, counterText, goTo, next, onDeckKey, prev } from './deck-nav'

const at = (slide: number, fullscreen = false) => ({ slide, fullscreen })

describe('deck navigation', () => {
  it('buttons stop at the ends', () => {
    expect(canPrev(at(1))).toBe(false)
    expect(canNext(at(10))).toBe(false)
    expect(prev(at(1)).slide).toBe(1)
    expect(next(at(10)).slide).toBe(10)
    expect(next(at(4)).slide).toBe(5)
    expect(goTo(at(4), 12).slide).toBe(10)
  })

  it('arrow keys wrap around', () => {
    expect(onDeckKey(at(10), 'ArrowRight')!.state.slide).toBe(1)
    expect(onDeckKey(at(1), 'ArrowLeft')!.state.slide).toBe(10)
    expect(onDeckKey(at(5), 'ArrowRight')!.state.slide).toBe(6)
  })

  it('Escape leaves fullscreen, else asks to exit to /', () => {
    expect(onDeckKey(at(3, true), 'Escape')).toEqual({ state: at(3, false) })
    expect(onDeckKey(at(3, false), 'Escape')).toEqual({ state: at(3, false), exit: true })
    expect(onDeckKey(at(3), 'a')).toBeNull()
  })

  it('counter reads "Slide N of 10", and "N / 10" in fullscreen', () => {
    expect(counterText(at(4))).toBe('Slide 4 of 10')
    expect(counterText(at(4, true))).toBe('4 / 10')
  })
})
