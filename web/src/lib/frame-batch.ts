// Events that arrive together (a burst of bids, a replay after a reconnect) are applied in one
// go, once per animation frame: one cache write and one React commit for the lot, instead of
// one per event. A hidden tab gets no frames, so there the batch runs on the next macrotask.

type Schedule = (run: () => void) => void

const nextFrame: Schedule = (run) => {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
    requestAnimationFrame(() => run())
  } else {
    setTimeout(run, 0)
  }
}

/** Collects items and hands them to `flush` in arrival order, at most once per frame. */
export function frameBatcher<T>(flush: (items: T[]) => void, schedule: Schedule = nextFrame): (item: T) => void {
  let pending: T[] = []
  let scheduled = false
  return (item: T) => {
    pending.push(item)
    if (scheduled) return
    scheduled = true
    schedule(() => {
      const items = pending
      pending = []
      scheduled = false
      flush(items)
    })
  }
}
