import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeMatch } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { matchTime } from '../lib/match-model'
import { ProposalPanel } from './proposal-panel'

describe('proposed times', () => {
  const times = ['2030-11-28T19:30:00Z', '2030-11-29T20:00:00Z']
  const proposed = makeMatch({ proposal: { by: 'A', times } })

  it('shows the times in the reader’s time zone and accepts one for the answering side', async () => {
    const api = mockApi({ 'POST /matches/7/accept': { body: { match: makeMatch({ scheduled_at: times[1] }) } } })
    renderApp(<ProposalPanel match={proposed} canPropose canAccept />)
    const list = screen.getByTestId('proposal-times')
    expect(list).toHaveTextContent(matchTime(times[0]))
    fireEvent.click(within(list).getAllByRole('button', { name: 'Accept' })[1])
    await waitFor(() => expect(api.callsTo('POST', '/matches/7/accept')).toHaveLength(1))
    expect(api.callsTo('POST', '/matches/7/accept')[0].body).toEqual({ at: times[1] })
  })

  it('lets the proposer see its times without an Accept, and propose again', () => {
    mockApi({})
    renderApp(<ProposalPanel match={proposed} canPropose canAccept={false} />)
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Propose' })).toBeDisabled()
  })
})
