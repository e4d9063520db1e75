import { lazy, useState, type ComponentProps, type ComponentType } from 'react'
import { loadedPage, loadPage, type PageModule } from './page-chunks'

/** The lazy components whose chunk failed to load, each with what makes it ask again. */
const failed = new Set<() => void>()

/** The chunks that failed to load are asked for afresh at their next render (the chunk boundary's retry). */
export function retryFailedChunks() {
  for (const retry of [...failed]) retry()
  failed.clear()
}

/**
 * React.lazy that can try again: React.lazy alone keeps a failed chunk's error for good, so a page
 * opened offline would stay broken once back online. A failure is kept (the chunk boundary shows
 * it, app/chunk-boundary.tsx) until retryFailedChunks, then the next render loads the chunk again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function retryableLazy<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  const fresh = () =>
    lazy<T>(() =>
      load().catch((err: unknown) => {
        failed.add(() => (current = fresh()))
        throw err
      }),
    )
  let current = fresh()
  return function Retryable(props: ComponentProps<T>) {
    const Lazy = current
    return <Lazy {...props} />
  }
}

/**
 * A page loaded with its chunk, like React.lazy, except that when the chunk has already loaded
 * (the first page, before the app's first render; a link's page, on the visitor's intent) the
 * page renders at once instead of showing its Suspense fallback for a frame, and that a chunk
 * that failed to load can be asked for again (retryFailedChunks).
 */
export function lazyPage(load: () => Promise<PageModule>) {
  const Lazy = retryableLazy(() => loadPage(load))
  return function Page(props: ComponentProps<PageModule['default']>) {
    // Chosen once per mount: switching from Lazy to the module's component later would remount
    // the page and lose its state.
    const [mod] = useState(() => loadedPage(load))
    return mod ? <mod.default {...props} /> : <Lazy {...props} />
  }
}
