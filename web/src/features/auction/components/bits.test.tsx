import { describe, expect, it } from 'vitest'
import { credits } from './bits'

describe('credits', () => {
  it('groups whole credits by threes as en-GB does', () => {
    for (const n of [0, 7, 999, 1000, 1700, 22000, 1234567, -1500]) {
      expect(credits(n)).toBe(`${new Intl.NumberFormat('en-GB').format(n)} cr`)
    }
  })
})
