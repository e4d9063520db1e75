import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeMatch } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { Bracket, Round, Standings } from '../types'
import { BracketView } from './bracket-view'

const round = (stage: Round['stage'], number: number, ids: number[], over: Partial<Round> = {}): Round => ({
  number,
  stage,
  bracket: stage as Round['bracket'],
  matches: ids.map((id) => makeMatch({ id, stage, round_number: number })),
  ...over,
})

const bracket = (over: Partial<Bracket>): Bracket => ({
  tournament: 'PPL7',
  format: 'single_elimination',
  seq: 3,
  seeds: [],
  seeded_by: 'team strength',
  rounds: [],
  champion: null,
  ...over,
})

describe('the bracket of the new formats', () => {
  it('draws a double elimination in its winners bracket, losers bracket and grand final', async () => {
    mockApi({
      'GET /tournaments/PPL7/bracket': {
        body: bracket({
          format: 'double_elimination',
          options: { grand_final_reset: true },
          rounds: [round('winners', 1, [1, 2]), round('winners', 2, [3]), round('losers', 1, [4]), round('losers', 2, [5]), round('grand_final', 1, [6])],
        }),
      },
    })
    renderApp(<BracketView tournament="PPL7" />)
    const winners = within(await screen.findByRole('region', { name: 'Winners bracket' }))
    expect(winners.getByRole('region', { name: 'Winners final' })).toBeInTheDocument()
    expect(winners.getAllByRole('link')).toHaveLength(3)
    const losers = within(screen.getByRole('region', { name: 'Losers bracket' }))
    expect(losers.getByText('A second loss is out.')).toBeInTheDocument()
    expect(losers.getByRole('region', { name: 'Losers final' })).toBeInTheDocument()
    const final = within(screen.getByRole('region', { name: 'Grand final' }))
    expect(final.getAllByRole('link')).toHaveLength(1)
    expect(final.getByText('Played only if the losers’ champion wins the grand final.')).toBeInTheDocument()
    expect(screen.getByText(/Double elimination · grand final reset · seeded by team strength/)).toBeInTheDocument()
  })

  it('draws a Swiss stage beside its standings, with the bye, the rounds to come and the top cut', async () => {
    const standings: Standings = {
      tournament: 'PPL7',
      seq: 3,
      stage: 'swiss',
      scoring: { win: 1, loss: 0, kills_per_point: 0 },
      tie_break: ['points', 'Buchholz', 'kill difference', 'seed'],
      rows: [
        { team: 'C', name: 'Team C', played: 0, won: 0, lost: 0, kills: 0, deaths: 0, kill_difference: 0, kill_points: 0, points: 1, byes: 1 },
        { team: 'A', name: 'Team A', played: 1, won: 1, lost: 0, kills: 30, deaths: 10, kill_difference: 20, kill_points: 0, points: 1, buchholz: 0 },
        { team: 'H', name: 'Thunder', played: 1, won: 0, lost: 1, kills: 10, deaths: 30, kill_difference: -20, kill_points: 0, points: 0, buchholz: 1 },
      ],
    }
    mockApi({
      'GET /tournaments/PPL7/bracket': {
        body: bracket({
          format: 'swiss',
          options: { rounds: 2, top_cut: 2 },
          rounds: [round('swiss', 1, [1], { bye: { id: 'C', name: 'Team C' } })],
        }),
      },
      'GET /tournaments/PPL7/standings': { body: standings },
    })
    renderApp(<BracketView tournament="PPL7" />)
    const table = within(await screen.findByRole('region', { name: 'Swiss standings' }))
    const rows = table.getAllByRole('row').slice(1)
    expect(rows.map((r) => r.dataset.team)).toEqual(['C', 'A', 'H'])
    expect(rows[0]).toHaveTextContent('0–0, 1 bye')
    expect(rows[1]).toHaveClass('is-cut-line')
    expect(table.getByTestId('swiss-rules')).toHaveTextContent('The top 2 go to the play-offs.')
    const rounds = within(screen.getByRole('region', { name: 'Swiss rounds' }))
    expect(within(rounds.getByRole('region', { name: 'Round 1' })).getByText('Team C')).toBeInTheDocument()
    expect(rounds.getByText('Paired by score when round 1 ends.')).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Play-offs' })).getByText('Drawn from the standings when round 2 ends.')).toBeInTheDocument()
  })

  it('says in words who withdrew and who went through by walkover, not only "W/O"', async () => {
    const c = { id: 'C', name: 'Team C' }
    const d = { id: 'D', name: 'Team D' }
    const e = { id: 'E', name: 'Team E' }
    mockApi({
      'GET /tournaments/PPL7/bracket': {
        body: bracket({
          seeds: [
            { seed: 1, team: d, strength: 2 },
            { seed: 2, team: c, strength: 1, withdrawn: true },
            { seed: 3, team: e, strength: 1 },
          ],
          rounds: [
            {
              number: 1,
              stage: 'semi_final',
              matches: [
                makeMatch({ id: 1, team1: d, team2: c, winner: 'D', status: 'completed', forfeit: true }),
                makeMatch({ id: 2, team1: e, team2: c, winner: 'C', status: 'completed', forfeit: true, slot: 1 }),
              ],
            },
          ],
        }),
      },
    })
    renderApp(<BracketView tournament="PPL7" />)
    const withdrew = await screen.findByRole('link', { name: /Match 1/ })
    expect(withdrew).toHaveTextContent('Team C withdrew — walkover to Team D')
    expect(within(withdrew).getByLabelText('Team D won by walkover')).toBeInTheDocument()
    // A forfeit of a team still in (it did not turn up) says so in its own words.
    expect(screen.getByRole('link', { name: /Match 2/ })).toHaveTextContent('Team E forfeited — walkover to Team C')
  })
})
