// The app's router is wouter (about 2 kB gzip, where react-router took 14 of the first page's
// JavaScript). This module gives the pages the few shapes they use: a location with its search,
// hash and history state, navigate to a path or a {pathname, search}, the query's parameters.
import { useCallback } from 'react'
import { Link, Route, Switch, useLocation as useWouterLocation, useParams, useSearchParams } from 'wouter'
import { useHistoryState, useLocationProperty } from 'wouter/use-browser-location'

export { Link, Route, Switch, useParams, useSearchParams }

export type Location = { pathname: string; search: string; hash: string; state: unknown }
export type To = string | { pathname: string; search?: string; hash?: string }
export type NavigateOptions = { replace?: boolean; state?: unknown }

const currentSearch = () => window.location.search
const currentHash = () => window.location.hash

/** The page's path, query ('?…' or ''), anchor ('#…' or '') and history state; re-renders when any changes. */
export function useLocation(): Location {
  const [pathname] = useWouterLocation()
  const search = useLocationProperty(currentSearch)
  const hash = useLocationProperty(currentHash)
  const state: unknown = useHistoryState()
  return { pathname, search, hash, state }
}

/** Goes to a path ('/tournament?tab=reg', or its parts), pushing a history entry unless `replace`. */
export function useNavigate() {
  const [, navigate] = useWouterLocation()
  return useCallback(
    (to: To, options?: NavigateOptions) =>
      navigate(typeof to === 'string' ? to : `${to.pathname}${to.search ?? ''}${to.hash ?? ''}`, options),
    [navigate],
  )
}
