// The organisers' pages, one link each, the current one marked.
import { Link, useLocation } from '@/lib/router'

export function AdminNav() {
  const { pathname } = useLocation()
  const here = (to: string) => (pathname === to ? { className: 'admin-nav-link active', 'aria-current': 'page' as const } : { className: 'admin-nav-link' })
  return (
    <nav className="admin-nav" aria-label="Organisers">
      <Link to="/admin" {...here('/admin')}>
        Auction &amp; league
      </Link>
      <Link to="/admin/matches" {...here('/admin/matches')}>
        Matches
      </Link>
      <Link to="/admin/metrics" {...here('/admin/metrics')}>
        Metrics
      </Link>
      <Link to="/auction" className="admin-nav-link">
        Big screen
      </Link>
    </nav>
  )
}
