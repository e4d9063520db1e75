import { describe, expect, it } from 'vitest'
import patterns from '@/lib/page-patterns.json'
import { rumRoute } from '@/lib/rum'
import { OVERLAY_PAGES } from './overlay/routes'
import { PPT_PATH, SITE_PAGES } from './router'

/** Every path the router has a page for, as its pattern ('/matches/:id'). */
const routed = [PPT_PATH, ...SITE_PAGES.map(([path]) => path), ...OVERLAY_PAGES.map(([path]) => `/overlay${path}`)]

/** A path of the pattern, its parameters filled in. */
const sample = (pattern: string) => pattern.replace(/:[a-z]+/g, (p) => (p === ':id' ? '12' : p === ':team' ? 'A' : 'PPL7'))

describe('page patterns', () => {
  it('are every page of the router, and only those', () => {
    expect([...patterns].sort()).toEqual([...routed].sort())
  })

  it("name each page's timings by its own pattern, not 'other'", () => {
    for (const pattern of routed) expect(rumRoute(sample(pattern))).toBe(pattern)
  })
})
