import { lazy, useState, type ComponentProps } from 'react'
import { loadedPage, loadPage, type PageModule } from './page-chunks'

/**
 * A page loaded with its chunk, like React.lazy, except that when the chunk has already loaded
 * (the first page, before the app's first render; a link's page, on the visitor's intent) the
 * page renders at once instead of showing its Suspense fallback for a frame.
 */
export function lazyPage(load: () => Promise<PageModule>) {
  const Lazy = lazy(() => loadPage(load))
  return function Page(props: ComponentProps<PageModule['default']>) {
    // Chosen once per mount: switching from Lazy to the module's component later would remount
    // the page and lose its state.
    const [mod] = useState(() => loadedPage(load))
    return mod ? <mod.default {...props} /> : <Lazy {...props} />
  }
}
