// Where a chunk of the app that could not be fetched ends up (offline, on a page not visited
// before; or a deploy that replaced it): the site's layout stays, the page's place says why, and
// the chunk is asked for again once the browser is back online (or on "Try again"). Any other
// error goes on up as before.
import { Component, type ReactNode } from 'react'
import { isChunkLoadError, useOnline, whenOnline } from '@/lib/offline'
import { retryFailedChunks } from './lazy-page'

type Props = {
  children: ReactNode
  /** What shows instead: the page's note (default), or nothing for a part of the page. */
  quiet?: boolean
}

type State = { error: unknown }

/** Tries again by itself after a failure while online (the network may come back a moment after the browser says so). */
const AUTO_RETRIES_MS = [1000, 3000, 8000]

export class ChunkBoundary extends Component<Props, State> {
  state: State = { error: null }
  private stop: (() => void) | null = null
  private timer = 0
  private autoRetries = 0

  static getDerivedStateFromError(error: unknown): State {
    return { error }
  }

  componentDidUpdate(_: Props, before: State) {
    if (!this.state.error || before.error === this.state.error) return
    this.stop ??= whenOnline(this.retry)
    const wait = AUTO_RETRIES_MS[this.autoRetries]
    if (navigator.onLine !== false && wait !== undefined) {
      this.autoRetries++
      this.timer = window.setTimeout(this.retryOnce, wait)
    }
  }

  componentWillUnmount() {
    this.stop?.()
    window.clearTimeout(this.timer)
  }

  /** Back online, or the visitor asked: a fresh round of tries. */
  retry = () => {
    this.autoRetries = 0
    this.retryOnce()
  }

  private retryOnce = () => {
    this.stop?.()
    this.stop = null
    window.clearTimeout(this.timer)
    retryFailedChunks()
    this.setState({ error: null })
  }

  render() {
    const { error } = this.state
    if (!error) return this.props.children
    // Not a chunk: the error goes on up, as if this boundary were not here.
    if (!isChunkLoadError(error)) throw error
    return this.props.quiet ? null : <PageNotLoaded onRetry={this.retry} />
  }
}

export function PageNotLoaded({ onRetry }: { onRetry: () => void }) {
  const online = useOnline()
  return (
    <div className="page page-not-loaded" role="alert">
      <h1>{online ? 'This page could not be loaded.' : 'You are offline: this page was not loaded before.'}</h1>
      <p className="muted">
        {online
          ? 'The connection may have dropped while it loaded, or the site was updated since this tab opened.'
          : 'It opens by itself when the connection is back. Pages you opened before still work offline.'}
      </p>
      <button type="button" className="btn btn-primary" onClick={onRetry}>
        Try again
      </button>
    </div>
  )
}
