import { describe, expect, it } from 'vitest'
import { DEFAULT_OPTIONS, parseOverlayOptions } from './options'

describe('parseOverlayOptions', () => {
  it('gives the defaults to a bare URL', () => {
    expect(parseOverlayOptions('')).toEqual(DEFAULT_OPTIONS)
  })

  it('reads every option', () => {
    expect(parseOverlayOptions('?tournament=PPL7&scale=0.5&theme=light&top=3&rows=4&hold=10')).toEqual({
      tournament: 'PPL7',
      scale: 0.5,
      theme: 'light',
      top: 3,
      rows: 4,
      hold: 10,
    })
  })

  it('clamps numbers to their range and ignores what is not a number', () => {
    const o = parseOverlayOptions('?scale=99&top=0&rows=abc&hold=-5')
    expect(o.scale).toBe(4)
    expect(o.top).toBe(1)
    expect(o.rows).toBe(DEFAULT_OPTIONS.rows)
    expect(o.hold).toBe(0)
  })

  it('knows only its themes', () => {
    expect(parseOverlayOptions('?theme=neon').theme).toBe('dark')
  })
})
