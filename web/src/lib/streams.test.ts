import { describe, expect, it } from 'vitest'
import { applyStreamChange, liveFor, sortStreams, type Stream } from './streams'

const s = (channel: string, over: Partial<Stream> = {}): Stream => ({
  channel,
  platform: 'twitch',
  display_name: channel,
  live: true,
  title: '',
  viewers: 0,
  official: false,
  stale: false,
  ...over,
})

describe('streams', () => {
  it('orders the league casts first, then players in today’s matches, then the rest, live before offline', () => {
    const list = sortStreams([s('rest', { viewers: 900 }), s('offcast', { official: true, live: false }), s('player', { match_id: 3 }), s('cast', { official: true })])
    expect(list.map((x) => x.channel)).toEqual(['cast', 'player', 'rest', 'offcast'])
  })

  it('applies stream.changed: replaced, added, dropped once neither live nor official', () => {
    const list = [s('a'), s('b', { viewers: 4 })]
    expect(applyStreamChange(list, s('c', { viewers: 9 }))?.map((x) => x.channel)).toEqual(['c', 'b', 'a'])
    expect(applyStreamChange(list, s('a', { live: false }))?.map((x) => x.channel)).toEqual(['b'])
    expect(applyStreamChange(list, s('a', { title: 'new' }))?.find((x) => x.channel === 'a')?.title).toBe('new')
    expect(applyStreamChange(undefined, s('a'))).toBeUndefined()
  })

  it('finds the live stream of a match or a player, not an offline one', () => {
    const list = [s('a', { match_id: 5, player_id: 8, live: false }), s('b', { player_id: 9 })]
    expect(liveFor(list, { matchId: 5 })).toBeUndefined()
    expect(liveFor(list, { playerId: 9 })?.channel).toBe('b')
  })
})
