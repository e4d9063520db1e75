import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveProvider } from '@/lib/live'
import { LiveClient } from '@/lib/live-client'
import { makeAuctionView, makeLeagueTeam, makeLot } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { useAuction } from '../api/auction'
import { BidPanel } from './bid-panel'

const frame = (seq: number, data: unknown) => JSON.stringify({ type: 'event', topic: 'teams', seq, event: 'auction.bid', data })
const bidEvent = (seq: number, team: string, amount: number) =>
  frame(seq, { tournament: 'PPL7', lot_id: 7, bid: { team, amount, at: new Date().toISOString() }, high_bid: { team, amount } })

function CaptainA() {
  const view = useAuction('PPL7').data
  if (!view) return null
  return <BidPanel tournament="PPL7" lot={view.lot} team={view.teams[0]} teams={view.teams} offset={view.offset} />
}

/** The panel of team A over the cached auction, as /captain draws it, the live events fed by hand. */
function setup(lot = makeLot({ high_bid: { team: 'B', amount: 1300 }, bids: [{ team: 'B', amount: 1300, at: new Date().toISOString() }] })) {
  const view = makeAuctionView({ lot, teams: [makeLeagueTeam('A', 2), makeLeagueTeam('B', 3, { name: 'Thunder' })] })
  mockApi({
    'GET /tournaments/PPL7/auction': { body: view },
    'POST /tournaments/PPL7/auction/bids': { body: { lot } },
  })
  const client = new LiveClient()
  renderApp(
    <LiveProvider enabled={false} client={client}>
      <CaptainA />
    </LiveProvider>,
  )
  act(() => client.open(() => undefined, null))
  return client
}

describe('the bid panel, live', () => {
  it('says who outbid the captain, and for how much, as soon as the bid arrives', async () => {
    const client = setup()
    const panel = await screen.findByTestId('bid-panel')
    expect(within(panel).getByRole('heading', { name: 'Bid for Team A' })).toBeInTheDocument()
    fireEvent.click(within(panel).getAllByRole('button', { name: /^Bid / })[0])
    expect(await within(panel).findByText('Bid placed: 1,400 cr for Team A.')).toBeInTheDocument()

    // The captain's own bid comes back: still theirs.
    act(() => client.handleFrame(bidEvent(41, 'A', 1400)))
    await waitFor(() => expect(within(panel).getByText(/High 1,400 cr · Team A/)).toBeInTheDocument())
    expect(within(panel).getByText('Bid placed: 1,400 cr for Team A.')).toBeInTheDocument()

    // Team B answers: the bar says so at once, in place of the stale "Bid placed".
    act(() => client.handleFrame(bidEvent(42, 'B', 1500)))
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Outbid by Team B · Thunder: 1,500 cr.')
    expect(within(panel).queryByText(/Bid placed/)).toBeNull()
  })

  it('a captain who comes back to an outbid lot reads it too', async () => {
    const now = new Date().toISOString()
    setup(
      makeLot({
        high_bid: { team: 'B', amount: 1500 },
        bids: [
          { team: 'A', amount: 1400, at: now },
          { team: 'B', amount: 1500, at: now },
        ],
      }),
    )
    expect(await screen.findByRole('alert')).toHaveTextContent('Outbid by Team B · Thunder: 1,500 cr.')
  })
})
