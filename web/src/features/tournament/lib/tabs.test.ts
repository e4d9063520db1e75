import { describe, expect, it } from 'vitest'
import { slideDirection, TOURNAMENT_TABS } from './tabs'

describe('tournament tabs', () => {
  it('has the seed keys and labels in order', () => {
    expect(TOURNAMENT_TABS.map((t) => t.key)).toEqual(['description', 'category', 'teams', 'reg', 'bracket', 'points', 'redcap', 'prizes'])
    expect(TOURNAMENT_TABS.map((t) => t.label)).toEqual(['Description', 'Category', 'Teams', 'Reg Player', 'Bracket', 'Points Table', 'Red Cap', 'Prizes'])
  })

  it('slides right when the new index is greater, else left', () => {
    expect(slideDirection('description', 'teams')).toBe('right')
    expect(slideDirection('redcap', 'category')).toBe('left')
    expect(slideDirection('reg', 'reg')).toBe('left')
  })
})
