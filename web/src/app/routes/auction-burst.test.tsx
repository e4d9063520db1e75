// A burst of 100 bids on /auction, measured with React's <Profiler>: how many commits the page
// makes and how many team cards, bids and result rows render again. Each bid arrives in its own
// task, as websocket messages do, all before the next animation frame (frames are stepped by
// hand here, so the figures do not depend on the machine's speed). Printed for docs/benchmarks.md.
import { act, screen } from '@testing-library/react'
import { Profiler } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { makeLeagueTeam } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { liveClient } from '@/lib/live'
import type { AuctionView } from '@/features/auction/types'
import AuctionRoute from './auction'

// Every price shown goes through credits(): its calls count the rows and cards rendered.
const formatted = vi.hoisted(() => ({ calls: 0 }))
vi.mock('@/features/auction/components/bits', async (importOriginal) => {
  const orig = await importOriginal<typeof import('@/features/auction/components/bits')>()
  return {
    ...orig,
    credits: (n: number) => {
      formatted.calls++
      return orig.credits(n)
    },
  }
})

const player = (id: number, name: string, tier = 2) => ({ user_id: id, name, tier, image: null, kd: 2, games_played: 500, level: 40 })
const at = new Date().toISOString()
const view: AuctionView = {
  tournament: 'PPL7',
  status: 'auction',
  seq: 40,
  now: at,
  lot: {
    id: 7,
    player: player(30, 'FrostSpark'),
    base_price: 1000,
    increment: 10,
    status: 'open',
    high_bid: null,
    ends_at: new Date(Date.now() + 3_600_000).toISOString(),
    opened_at: at,
    closed_at: null,
    bids: [],
  },
  sold: Array.from({ length: 30 }, (_, i) => ({ lot_id: 100 + i, player: player(200 + i, `Sold ${i}`), team: 'ABCDEFGH'[i % 8], price: 1200, at })),
  unsold: Array.from({ length: 10 }, (_, i) => ({ lot_id: 300 + i, player: player(400 + i, `Unsold ${i}`, 4), at })),
  pool: [],
  teams: Array.from('ABCDEFGH', (id, i) => makeLeagueTeam(id, 2 + i)),
  rules: { min_price: 1000, max_price: 5000, slots: 5, lot_seconds: 20, late_bid_seconds: 10, tier_prices: {}, tier_bands: [] },
}

const bid = (n: number) =>
  JSON.stringify({
    type: 'event',
    topic: 'teams',
    seq: 41 + n,
    event: 'auction.bid',
    ts: new Date().toISOString(),
    data: {
      tournament: 'PPL7',
      lot_id: 7,
      bid: { team: 'ABCDEFGH'[n % 8], amount: 1000 + 10 * n, at },
      high_bid: { team: 'ABCDEFGH'[n % 8], amount: 1000 + 10 * n },
      ends_at: view.lot!.ends_at,
    },
  })

describe('/auction under a burst of 100 bids', () => {
  it('commits a few times, not once per bid, and renders again only the lot and the teams whose lead changed', { timeout: 30_000 }, async () => {
    mockApi({
      'GET /tournament/info': { body: { name: 'PPL7', status: 'auction', registration_open: false, count: 60 } },
      'GET /tournament/registrations': { body: { tournament: 'PPL7', count: 0, seq: 0, players: [] } },
      'GET /tournaments/PPL7/auction': { body: view },
    })
    let commits = 0
    renderApp(
      <Profiler id="auction" onRender={() => commits++}>
        <AuctionRoute />
      </Profiler>,
      { route: '/auction' },
    )
    await screen.findByTestId('sold-list')
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50))
    })
    const frames: FrameRequestCallback[] = []
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb))
    commits = 0
    formatted.calls = 0
    const started = performance.now()
    await act(async () => {
      for (let n = 0; n < 100; n++) {
        liveClient.handleFrame(bid(n))
        await new Promise((r) => setTimeout(r, 0))
      }
    })
    await act(async () => {
      for (const cb of frames.splice(0)) cb(performance.now())
      await new Promise((r) => setTimeout(r, 20))
    })
    const ms = performance.now() - started
    console.log(`100-bid burst: ${commits} commits, ${formatted.calls} prices formatted (rows and cards rendered), ${ms.toFixed(0)} ms`)
    expect(screen.getByTestId('lot-player')).toHaveTextContent('FrostSpark')
    expect(screen.getAllByText('Leading')).toHaveLength(1)
    expect(screen.getByTestId('high-bid')).toHaveTextContent('1,990')
    // The 100 bids of one frame make one cache write, so one commit (a couple more with the lot's clock).
    expect(commits).toBeLessThanOrEqual(3)
    // Rendered again: the lot's figures, its 100 new bid rows, and the teams that led; not the 30
    // sold rows nor the other teams' cards and rosters.
    expect(formatted.calls).toBeLessThan(130)
  })
})
