import { describe, expect, it } from 'vitest'
import { frameBatcher } from './frame-batch'

describe('frameBatcher', () => {
  it('hands every item that arrived before the frame to one flush, in order', () => {
    const frames: (() => void)[] = []
    const flushed: number[][] = []
    const push = frameBatcher<number>((xs) => flushed.push(xs), (run) => frames.push(run))
    for (let i = 1; i <= 100; i++) push(i)
    expect(frames).toHaveLength(1)
    expect(flushed).toEqual([])
    frames[0]()
    expect(flushed).toEqual([Array.from({ length: 100 }, (_, i) => i + 1)])
  })

  it('starts a new batch after a flush', () => {
    const frames: (() => void)[] = []
    const flushed: string[][] = []
    const push = frameBatcher<string>((xs) => flushed.push(xs), (run) => frames.push(run))
    push('a')
    frames[0]()
    push('b')
    push('c')
    expect(frames).toHaveLength(2)
    frames[1]()
    expect(flushed).toEqual([['a'], ['b', 'c']])
  })
})
