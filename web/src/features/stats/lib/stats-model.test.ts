import { describe, expect, it } from 'vitest'
import { statsTabAnswer } from '@/testing/fixtures'
import {
  applyReview,
  cardFromExtracted,
  cardFromSaved,
  doubtText,
  kdOf,
  kdProposal,
  needsReview,
  randomCategory,
  reviewDoubts,
  reviewValues,
  toInt,
  toSavePayload,
} from './stats-model'

const extracted = {
  discord_username: 'Zoom',
  level: '42',
  kills: '1,234',
  deaths: 'abc',
  total_games: '300',
  sk_id: 'SK-77',
  kd_ratio: '2.5',
  cart_image: null,
}

describe('stats model', () => {
  it('parses numeric stats as integers with default 0', () => {
    expect(toInt('42')).toBe(42)
    expect(toInt('1,234')).toBe(1234)
    expect(toInt('abc')).toBe(0)
    expect(toInt(undefined)).toBe(0)
  })

  it('builds the save payload', () => {
    const p = toSavePayload(extracted, 3)
    expect(p).toMatchObject({
      sk_id: 'SK-77',
      level: 42,
      kills: 1234,
      deaths: 0,
      games_played: 300,
      kd: 2.5,
      cart_image: null,
      category: 3,
      preferred_role: 'Player',
    })
    expect(typeof p.description).toBe('string')
  })

  it('picks a category from 1 to 4', () => {
    expect(randomCategory(() => 0)).toBe(1)
    expect(randomCategory(() => 0.999)).toBe(4)
    for (let i = 0; i < 50; i++) expect([1, 2, 3, 4]).toContain(randomCategory())
  })

  it('reads saved stats defensively', () => {
    expect(cardFromSaved({ kd: 1.234, games_played: 10, category: 2, sk_id: '' }, 'Me')).toMatchObject({
      name: 'Me',
      kd: '1.23',
      games: 10,
      category: 2,
      skid: 'N/A',
    })
  })

  const statsTab = statsTabAnswer({ level: '1', missing: ['name', 'level', 'games', 'sk_id'] })

  it('asks for a review when a field is doubtful or missing, or the server did not save', () => {
    expect(needsReview(extracted)).toBe(false)
    expect(needsReview(extracted, true)).toBe(false)
    expect(needsReview(extracted, false)).toBe(true)
    expect(needsReview(statsTab, true)).toBe(true)
    expect(needsReview({ ...extracted, doubtful: { level: 'hard to read on the screenshot' } })).toBe(true)
    expect(needsReview({ ...extracted, doubtful: { wins: 'hard to read on the screenshot' } }, true)).toBe(false)
  })

  it("leaves what the screen did not show empty, and falls back to the Discord name", () => {
    expect(reviewValues(statsTab, 'rider#1')).toEqual({ name: 'rider#1', level: '', kills: '4791', deaths: '2678', games: '', sk_id: '' })
    expect(reviewValues(extracted, 'rider#1').name).toBe('Zoom')
    expect(cardFromExtracted(statsTab, 2, 'rider#1').name).toBe('rider#1')
    expect(cardFromExtracted(statsTab, 2).name).toBe('Player')
  })

  it("puts a K/D doubt on kills and deaths, the figures the player types", () => {
    expect(reviewDoubts({ ...statsTab, doubtful: { kd: 'K/D 1.60 does not match kills / deaths', level: 'hard to read' } })).toEqual({
      kills: 'K/D 1.60 does not match kills / deaths',
      deaths: 'K/D 1.60 does not match kills / deaths',
      level: 'hard to read',
    })
  })

  it('keeps a K/D worked out from kills and deaths on its own line, and a proposed count on its field', () => {
    const kdWorkedOut = { ...statsTab, proposed: ['kd'], doubtful: { kd: 'worked out from kills ÷ deaths: please check' } }
    expect(kdProposal(kdWorkedOut)).toBe('worked out from kills ÷ deaths: please check')
    expect(reviewDoubts(kdWorkedOut)).toEqual({})
    expect(needsReview(kdWorkedOut, false)).toBe(true)
    const killsWorkedOut = { ...statsTab, proposed: ['kills'], doubtful: { kills: 'worked out from K/D × deaths: please check' } }
    expect(kdProposal(killsWorkedOut)).toBe('')
    expect(reviewDoubts(killsWorkedOut)).toEqual({ kills: 'worked out from K/D × deaths: please check' })
  })

  it('asks the player to check a doubt once', () => {
    expect(doubtText('worked out from K/D × deaths: please check')).toBe('Worked out from K/D × deaths: please check')
    expect(doubtText('hard to read on the screenshot')).toBe('Please check: hard to read on the screenshot')
  })

  it('saves what the player approved, with the K/D of their kills and deaths', () => {
    const approved = applyReview(statsTab, { name: 'rider#1', level: '24', kills: '4791', deaths: '2678', games: '1500', sk_id: '' })
    expect(approved).toMatchObject({ discord_username: 'rider#1', level: '24', total_games: '1500', sk_id: 'N/A', kd_ratio: '1.79', missing: undefined })
    expect(toSavePayload(approved, 1)).toMatchObject({ player_name: 'rider#1', level: 24, kills: 4791, deaths: 2678, games_played: 1500, kd: 1.79 })
    expect(kdOf(7, 0)).toBe('7.00')
  })
})
