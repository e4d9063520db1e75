import { useEffect } from 'react'
import { Link, useLocation } from '@/lib/router'

export default function NotFoundRoute() {
  const { pathname } = useLocation()
  useEffect(() => {
    document.title = 'Page not found · Pitlane'
  }, [])
  return (
    <div className="page not-found">
      <p className="nf-code" aria-hidden="true">
        404
      </p>
      <h1>Off the track</h1>
      <p className="muted">
        There is no page at <code>{pathname}</code>. It may have moved, or the link has a typo.
      </p>
      <div className="row-actions">
        <Link to="/" className="btn btn-primary">
          Back to the home page
        </Link>
        <Link to="/tournament" className="btn btn-ghost">
          Tournament
        </Link>
      </div>
    </div>
  )
}
