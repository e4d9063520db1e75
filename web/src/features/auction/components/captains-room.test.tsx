import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { CaptainsRoom } from './captains-room'

const at = new Date().toISOString()

describe('the captains room', () => {
  it('names each captain as their name is written on the teams, not by a lower-cased handle', async () => {
    mockApi({
      'GET /tournaments/PPL7/captains/messages': {
        body: {
          tournament: 'PPL7',
          seq: 2,
          messages: [
            { id: 1, author: 'nitroracer', user_id: 3, role: 'captain', team: 'B', text: 'Nice bid', at },
            { id: 2, author: 'league.organiser', user_id: 1, role: 'organiser', team: '', text: 'Next lot soon', at },
          ],
        },
      },
    })
    renderApp(<CaptainsRoom tournament="PPL7" me={2} names={new Map([[3, 'NitroRacer']])} />)
    const lines = within(await screen.findByTestId('room-lines')).getAllByRole('listitem')
    expect(lines[0]).toHaveTextContent('NitroRacer')
    expect(lines[0]).not.toHaveTextContent('nitroracer')
    // Someone the teams do not name keeps the name the server gave.
    expect(lines[1]).toHaveTextContent('league.organiser')
  })
})
