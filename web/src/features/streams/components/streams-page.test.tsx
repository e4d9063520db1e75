import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { Stream } from '@/lib/streams'
import { StreamsPage } from './streams-page'

const s = (channel: string, over: Partial<Stream> = {}): Stream => ({
  channel,
  platform: 'twitch',
  display_name: channel,
  live: true,
  title: `${channel} title`,
  viewers: 10,
  official: false,
  stale: false,
  ...over,
})

function setup(list: Stream[]) {
  const api = mockApi({ 'GET /streams': { body: list } })
  const utils = renderApp(<StreamsPage />)
  utils.client.setQueryData(['config'], { google_client_id: '', default_tournament: 'PPL7', extractor: 'ocr', streams: true })
  return { ...utils, api }
}

describe('/streams', () => {
  it('lists the league casts, then players in today’s matches, then the rest', async () => {
    setup([s('rest', { viewers: 999 }), s('player', { match_id: 4 }), s('cast', { official: true })])
    const groups = await screen.findAllByRole('region')
    expect(groups.map((g) => within(g).getByRole('heading', { level: 2 }).textContent)).toEqual(['League casts', 'Players in today’s matches', 'More from the league'])
    expect(within(groups[1]).getByRole('link', { name: 'Match 4' })).toHaveAttribute('href', '/matches/4')
  })

  it('loads Twitch’s player only when the visitor presses play', async () => {
    const { container } = setup([s('cast', { official: true })])
    const play = await screen.findByRole('button', { name: 'Watch cast on Twitch' })
    expect(container.querySelector('iframe')).toBeNull()
    fireEvent.click(play)
    expect(container.querySelector('iframe')?.getAttribute('src')).toMatch(/^https:\/\/player\.twitch\.tv\/\?channel=cast&parent=/)
  })

  it('shows a state Twitch has not confirmed lately as the last known one', async () => {
    setup([s('quiet', { stale: true })])
    expect(await screen.findByText('Last known: live')).toBeInTheDocument()
    expect(screen.getByText(/last known state/)).toBeInTheDocument()
  })
})
