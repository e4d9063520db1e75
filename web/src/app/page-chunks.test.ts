import { describe, expect, it } from 'vitest'
import { pageOf, pages } from './page-chunks'

describe('pageOf', () => {
  it('names the chunk of the page a link opens', () => {
    expect(pageOf('/')).toBe(pages.home)
    expect(pageOf('/#news')).toBe(pages.home)
    expect(pageOf('/tournament?tab=reg')).toBe(pages.tournament)
    expect(pageOf('/auction/')).toBe(pages.auction)
    expect(pageOf('/matches/12')).toBe(pages.match)
    expect(pageOf('/admin/matches')).toBe(pages.adminMatches)
    expect(pageOf('/admin')).toBe(pages.admin)
    expect(pageOf('/admin/metrics')).toBe(pages.adminMetrics)
  })

  it('names none for other paths', () => {
    expect(pageOf('/adminMatches')).toBeUndefined()
    expect(pageOf('/adminMetrics')).toBeUndefined()
    expect(pageOf('/match')).toBeUndefined()
    expect(pageOf('/no/such/page')).toBeUndefined()
    expect(pageOf('/overlay/auction')).toBeUndefined()
  })
})
