// /admin/metrics: the product against the deck's goals, measured live (docs/metrics.md). The site's
// organisers only (not a season's co-organisers): the server refuses anyone else (403); this page
// only says so.
import { useEffect } from 'react'
import { PageHead } from '@/components/layout/page-head'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useTournamentName } from '@/config/app-config'
import { MetricsDashboard } from '@/features/metrics/components/metrics-dashboard'
import { can } from '@/lib/authorization'
import { useSession } from '@/lib/auth'
import { openAuthModal } from '@/lib/window-events'
import { AdminNav } from '../admin-nav'
import { OrganiserGate } from '../organiser-gate'

export default function AdminMetricsRoute() {
  const tournament = useTournamentName()
  const { user, isLoading } = useSession()

  useEffect(() => {
    document.title = `Metrics · ${tournament} · Pitlane`
  }, [tournament])

  return (
    <div className="page admin-page">
      <PageHead kicker="Organisers" title={<>Metrics · {tournament}</>} />
      {isLoading ? (
        <Spinner label="Checking your account" />
      ) : user?.security?.organiser_locked ? (
        <OrganiserGate page={false}>{null}</OrganiserGate>
      ) : !can(user, 'metrics') ? (
        <EmptyState title="The site's organisers only.">
          <p>This page shows how the league is doing against its goals: sign-ups, page speed, the API and the live nights.</p>
          {can(user, 'organise') ? <p>A season's co-organisers run its matches and auction; the site's metrics stay with its organisers.</p> : null}
          {user ? null : (
            <button type="button" className="btn btn-primary" onClick={() => openAuthModal('login')}>
              Sign in
            </button>
          )}
        </EmptyState>
      ) : (
        <>
          <AdminNav />
          <MetricsDashboard tournament={tournament} />
        </>
      )}
    </div>
  )
}
