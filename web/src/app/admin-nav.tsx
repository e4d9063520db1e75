// The organisers' pages, one link each, the current one marked: only those the account may use
// (a co-organiser has no Metrics, which the server keeps to the site's organisers), and the rooms
// of the teams and matches they run (the header has no room for that link beside Admin).
import { can } from '@/lib/authorization'
import { useSession } from '@/lib/auth'
import { Link, useLocation } from '@/lib/router'

export function AdminNav() {
  const { pathname } = useLocation()
  const { user } = useSession()
  const here = (to: string) => (pathname === to ? { className: 'admin-nav-link active', 'aria-current': 'page' as const } : { className: 'admin-nav-link' })
  return (
    <nav className="admin-nav" aria-label="Organisers">
      <Link to="/admin" {...here('/admin')}>
        Auction &amp; league
      </Link>
      <Link to="/admin/matches" {...here('/admin/matches')}>
        Matches
      </Link>
      {can(user, 'metrics') ? (
        <Link to="/admin/metrics" {...here('/admin/metrics')}>
          Metrics
        </Link>
      ) : null}
      <Link to="/rooms" className="admin-nav-link">
        Rooms
      </Link>
      <Link to="/auction" className="admin-nav-link">
        Big screen
      </Link>
    </nav>
  )
}
