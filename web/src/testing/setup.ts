import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// Lazy chunks (the auth modal) take a moment to import on the first test of a file,
// and a loaded CI machine (two cores shared by the test workers) slows every render:
// a bid's confirmation once took over 4 s to appear there. Waits only end sooner.
configure({ asyncUtilTimeout: 10000 })

class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = []
  readonly options: IntersectionObserverInit
  readonly callback: IntersectionObserverCallback
  readonly observed = new Set<Element>()
  constructor(cb: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = cb
    this.options = options
    FakeIntersectionObserver.instances.push(this)
  }
  observe(el: Element) {
    this.observed.add(el)
  }
  unobserve(el: Element) {
    this.observed.delete(el)
  }
  disconnect() {
    this.observed.clear()
  }
  takeRecords() {
    return []
  }
  /** Test helper: report every observed element as intersecting. */
  intersectAll() {
    const entries = [...this.observed].map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry)
    this.callback(entries, this as unknown as IntersectionObserver)
  }
}
;(globalThis as unknown as { IntersectionObserver: unknown }).IntersectionObserver = FakeIntersectionObserver
;(globalThis as unknown as { FakeIntersectionObserver: unknown }).FakeIntersectionObserver = FakeIntersectionObserver

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList
}
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo
Element.prototype.scrollIntoView = vi.fn()
if (!URL.createObjectURL) URL.createObjectURL = () => 'blob:preview'
if (!URL.revokeObjectURL) URL.revokeObjectURL = () => undefined

afterEach(() => {
  cleanup()
  window.localStorage.clear()
  document.body.className = ''
  FakeIntersectionObserver.instances = []
  vi.useRealTimers()
  vi.unstubAllGlobals()
})
