import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveClient, type ClientFrame } from '@/lib/live-client'
import { LiveProvider } from '@/lib/live'
import { CheerBar } from './cheer-bar'
import { MAX_PARTICLES, particlesFor, scaleFor, shortCount } from './cheers'

const cheers = (topic: string, counts: Record<string, number>) => JSON.stringify({ type: 'cheers', topic, counts, window_ms: 200 })

describe('the burst of a window', () => {
  it('grows with the count: one particle a tap at first, then by the square root up to a cap', () => {
    expect([0, 1, 3, 4].map(particlesFor)).toEqual([0, 1, 3, 4])
    expect(particlesFor(9)).toBe(8)
    expect(particlesFor(100)).toBe(MAX_PARTICLES)
    expect(particlesFor(1_000_000)).toBe(MAX_PARTICLES)
    expect(scaleFor(1)).toBe(1)
    expect(scaleFor(1000)).toBe(2)
    expect(scaleFor(10)).toBeGreaterThan(scaleFor(2))
    expect(shortCount(12_345)).toBe('12k')
  })
})

describe('LiveClient and cheers', () => {
  it('hands a cheers frame to the topic\'s listeners without touching its seq', () => {
    const c = new LiveClient()
    const got: Record<string, number>[] = []
    c.subscribe('teams', { onCheers: (f) => got.push(f.counts) }, 7)
    c.subscribe('bracket', { onCheers: (f) => got.push(f.counts) })
    c.handleFrame(cheers('teams', { fire: 3 }))
    expect(got).toEqual([{ fire: 3 }])
    expect(c.lastSeq('teams')).toBe(7)
  })

  it('sends a cheer over the open socket, and says so', () => {
    const c = new LiveClient()
    expect(c.cheer('teams', 'gg')).toBe(false)
    const sent: ClientFrame[] = []
    c.open((f) => sent.push(f), null)
    expect(c.cheer('teams', 'gg')).toBe(true)
    expect(sent).toContainEqual({ type: 'cheer', topic: 'teams', kind: 'gg' })
  })
})

describe('CheerBar', () => {
  it('sends a tap as a cheer frame and bursts with what the window counted', () => {
    const client = new LiveClient()
    const sent: ClientFrame[] = []
    client.open((f) => sent.push(f), null)
    const { container } = render(
      <LiveProvider client={client} enabled={false}>
        <CheerBar topic="teams" />
      </LiveProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Fire' }))
    expect(sent).toContainEqual({ type: 'cheer', topic: 'teams', kind: 'fire' })
    act(() => client.handleFrame(cheers('teams', { fire: 9, clap: 2 })))
    expect(container.querySelectorAll('.cheer-particle')).toHaveLength(particlesFor(9) + particlesFor(2))
    expect(screen.getByTestId('cheer-count-fire')).toHaveTextContent('9')
    act(() => client.handleFrame(cheers('bracket', { sad: 5 })))
    expect(container.querySelectorAll('.cheer-particle')).toHaveLength(particlesFor(9) + particlesFor(2))
  })

  it('on an overlay shows the bursts without buttons', () => {
    const client = new LiveClient()
    const { container } = render(
      <LiveProvider client={client} enabled={false}>
        <CheerBar topic="bracket" buttons={false} />
      </LiveProvider>,
    )
    expect(screen.queryByRole('button')).toBeNull()
    act(() => client.handleFrame(cheers('bracket', { wow: 1 })))
    expect(container.querySelectorAll('.cheer-particle')).toHaveLength(1)
  })
})
