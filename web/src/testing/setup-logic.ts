import { afterEach, vi } from 'vitest'

// The logic tests (*.test.ts) run in Node: no DOM to stand in for and no testing library to
// load (setup.ts, the components', takes most of a small file's time). After each test, what it
// may have changed is put back; a file that asks for jsdom gets its storage emptied too.
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  if (typeof window !== 'undefined') window.localStorage.clear()
})
