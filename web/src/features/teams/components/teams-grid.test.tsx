import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { TeamCaptains, teamLabel } from './teams-grid'

const team = (letter: string, name: string, captain: string) => ({
  id: letter,
  letter,
  name,
  logo: null,
  captain: { id: letter, name: captain, image: null },
  players: [],
})

describe('team captains on the home page', () => {
  it('names the team once: "Team A", or "Team A · Thunder" for a team with a name of its own', () => {
    expect(teamLabel({ letter: 'A', name: 'Team A' })).toBe('Team A')
    expect(teamLabel({ letter: 'B', name: '' })).toBe('Team B')
    expect(teamLabel({ letter: 'C', name: 'Thunder' })).toBe('Team C · Thunder')
  })

  it('shows the captain names in full, with a tooltip', async () => {
    const long = 'Supercalifragilistic_Kart_Destroyer'
    mockApi({
      'GET /tournament/teams': { body: { tournament: 'PPL7', teams: [team('A', 'Team A', 'TurboKing'), team('B', 'Thunder', long)] } },
    })
    renderApp(<TeamCaptains tournament="PPL7" />)
    expect(await screen.findByText(long)).toBeInTheDocument()
    expect(screen.getByText('Team A')).toBeInTheDocument()
    expect(screen.queryByText('Team A · Team A')).not.toBeInTheDocument()
    expect(screen.getByText('Team B · Thunder')).toBeInTheDocument()
    expect(screen.getByText(long).closest('li')).toHaveAttribute('title', `${long}, captain of Team B · Thunder`)
  })
})
