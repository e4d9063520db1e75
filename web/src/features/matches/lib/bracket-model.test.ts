import { describe, expect, it } from 'vitest'
import { makeMatch } from '@/testing/league-fixtures'
import type { Bracket, Round } from '../types'
import { bracketSections, defaultSwissRounds, feeders, formatSummary, moveSeed, swissRecord, topCutChoices } from './bracket-model'

const round = (stage: string, number: number, over: Partial<Round> = {}): Round => ({
  number,
  stage,
  bracket: ['winners', 'losers', 'grand_final', 'swiss'].includes(stage) ? (stage as Round['bracket']) : undefined,
  matches: [makeMatch({ id: number * 10 + stage.length, stage, round_number: number })],
  ...over,
})

const bracket = (format: string, rounds: Round[], options?: Bracket['options']): Bracket => ({
  tournament: 'PPL7',
  format,
  seq: 1,
  seeds: [],
  seeded_by: 'team strength',
  rounds,
  champion: null,
  options,
})

const titles = (b: Bracket) => bracketSections(b).map((s) => `${s.key}: ${s.rounds.map((r) => (r.round ? r.title : `(${r.title})`)).join(', ')}`)

describe('the sections a bracket is drawn in', () => {
  it('draws a double elimination as its winners bracket, losers bracket and grand final, with the reset to come', () => {
    const b = bracket(
      'double_elimination',
      [round('winners', 1), round('winners', 2), round('winners', 3), round('losers', 1), round('losers', 2), round('losers', 3), round('losers', 4), round('grand_final', 1)],
      { grand_final_reset: true },
    )
    expect(titles(b)).toEqual([
      'winners: Round 1, Round 2, Winners final',
      'losers: Round 1, Round 2, Round 3, Losers final',
      'grand_final: Final, (Reset)',
    ])
    expect(bracketSections(b)[2].note).toBe('The winners’ champion needs one win, the losers’ champion two.')
  })

  it('drops the reset once the winners’ champion wins the grand final, and draws it once made', () => {
    const won = (winner: string) =>
      round('grand_final', 1, { matches: [makeMatch({ stage: 'grand_final', status: 'completed', winner })] })
    const opts = { grand_final_reset: true }
    expect(titles(bracket('double_elimination', [won('A')], opts)).at(-1)).toBe('grand_final: Final')
    expect(titles(bracket('double_elimination', [won('H')], opts)).at(-1)).toBe('grand_final: Final, (Reset)')
    expect(titles(bracket('double_elimination', [won('H'), round('grand_final', 2)], opts)).at(-1)).toBe('grand_final: Final, Reset')
    expect(titles(bracket('double_elimination', [round('grand_final', 1)], {})).at(-1)).toBe('grand_final: Final')
  })

  it('draws a Swiss stage’s rounds, those still to pair, and its top cut before and after it is drawn', () => {
    const opts = { rounds: 3, top_cut: 4 }
    expect(titles(bracket('swiss', [round('swiss', 1)], opts))).toEqual([
      'swiss: Round 1, (Round 2), (Round 3)',
      'playoffs: (Top 4)',
    ])
    const done = [round('swiss', 1), round('swiss', 2), round('swiss', 3), round('semi_final', 4), round('final', 5)]
    expect(titles(bracket('swiss', done, opts))).toEqual(['swiss: Round 1, Round 2, Round 3', 'playoffs: Semi-finals, Final'])
    expect(titles(bracket('swiss', [round('swiss', 1)], { rounds: 2 }))).toEqual(['swiss: Round 1, (Round 2)'])
    expect(bracketSections(bracket('swiss', [round('swiss', 1)], opts))[0].rounds[1].pending).toBe('Paired by score when round 1 ends.')
  })

  it('draws a one-bracket format as one untitled section, rounds named as before', () => {
    const b = bracket('league_then_playoffs', [round('league', 1), round('league', 2), round('semi_final', 3), round('final', 4)])
    expect(titles(b)).toEqual(['rounds: Round 1, Round 2, Semi-finals, Final'])
    expect(bracketSections(b)[0].title).toBe('')
  })
})

describe('the format in words', () => {
  it('says a format with its options', () => {
    expect(formatSummary('swiss', { rounds: 3, top_cut: 4 })).toBe('Swiss · 3 rounds · top 4 cut')
    expect(formatSummary('swiss', { rounds: 4 })).toBe('Swiss · 4 rounds')
    expect(formatSummary('double_elimination', { grand_final_reset: true })).toBe('Double elimination · grand final reset')
    expect(formatSummary('double_elimination', {})).toBe('Double elimination · no reset')
    expect(formatSummary('round_robin')).toBe('Round robin')
  })

  it('says a Swiss record with its byes', () => {
    expect(swissRecord({ won: 2, lost: 1 })).toBe('2–1')
    expect(swissRecord({ won: 2, lost: 0, byes: 1 })).toBe('2–0, 1 bye')
  })
})

describe('the Swiss options offered', () => {
  it('defaults the rounds as the server does', () => {
    expect([2, 3, 4, 5, 8, 9, 16].map(defaultSwissRounds)).toEqual([1, 2, 2, 3, 3, 4, 4])
  })

  it('offers only the cuts the teams allow', () => {
    expect(topCutChoices(8)).toEqual([0, 2, 4, 8])
    expect(topCutChoices(3)).toEqual([0, 2])
  })
})

describe('moving a seed', () => {
  it('moves a team up or down and leaves the rest in order', () => {
    expect(moveSeed(['A', 'B', 'C', 'D'], 2, 1)).toEqual(['A', 'C', 'B', 'D'])
    expect(moveSeed(['A', 'B', 'C', 'D'], 0, 3)).toEqual(['B', 'C', 'D', 'A'])
  })

  it('keeps the order at the ends of the list', () => {
    expect(moveSeed(['A', 'B'], 0, -1)).toEqual(['A', 'B'])
    expect(moveSeed(['A', 'B'], 1, 2)).toEqual(['A', 'B'])
    expect(moveSeed(['A', 'B'], 5, 0)).toEqual(['A', 'B'])
  })
})

describe('where a side not known yet comes from', () => {
  it('names the match whose winner or loser fills it', () => {
    const b = bracket('double_elimination', [
      round('winners', 1, { matches: [makeMatch({ id: 1, next_match: 3, next_side: 1, loser_match: 4, loser_side: 2 }), makeMatch({ id: 2, next_match: 3, next_side: 2, loser_match: 4, loser_side: 1 })] }),
      round('winners', 2, { matches: [makeMatch({ id: 3, next_match: null, team1: null, team2: null })] }),
      round('losers', 1, { matches: [makeMatch({ id: 4, next_match: null, team1: null, team2: null })] }),
    ])
    const from = feeders(b)
    expect(from.get(3)).toEqual({ 1: 'Winner of match 1', 2: 'Winner of match 2' })
    expect(from.get(4)).toEqual({ 1: 'Loser of match 2', 2: 'Loser of match 1' })
    expect(from.get(1)).toBeUndefined()
  })
})
