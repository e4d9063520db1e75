// /admin: the organisers' page: the phase (each move as the server would take it), the season's own
// identity (its name, hero line, description, dates and banner), the registration (its cap, the
// check-in, the waitlist), the captains, the tiers and the player queue, the auction's flow (pause,
// resume, undo the last sale, nomination turns), the lot under the hammer (close it early), the sales
// (void one), the rosters (withdraw a player), the co-organisers and the audit log. The server checks
// every call; this page only hides what it would refuse.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Link } from '@/lib/router'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { useTournamentName } from '@/config/app-config'
import { useSession } from '@/lib/auth'
import { useLiveTopic } from '@/lib/live'
import { openAuthModal } from '@/lib/window-events'
import { auditKey } from '@/features/auction/api/admin'
import { useCloseLot } from '@/features/auction/api/close-lot'
import { useVoidSale } from '@/features/auction/api/void-sale'
import { auctionKey, useAuction } from '@/features/auction/api/auction'
import { PhaseControl } from '@/features/auction/components/admin-phase'
import { FlowAdmin } from '@/features/auction/components/admin-flow'
import { CaptainsAdmin } from '@/features/auction/components/admin-captains'
import { QueueAdmin } from '@/features/auction/components/admin-queue'
import { AuditLog } from '@/features/auction/components/audit-log'
import { LotStage } from '@/features/auction/components/lot-stage'
import { SoldList, UnsoldList } from '@/features/auction/components/results'
import { TeamsBoard } from '@/features/auction/components/teams-board'
import { NO_FLOW } from '@/features/auction/types'
import { lastFailure } from '@/lib/mutations'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { RegistrationAdmin } from '@/features/tournament/components/registration-admin'
import { StaffAdmin } from '@/features/tournament/components/staff-admin'
import { SeasonAdmin } from '@/features/tournament/components/season-admin'
import { AdminNav } from '../admin-nav'
import { OrganiserGate } from '../organiser-gate'
import { idleText } from './auction'
import { AdminRosters } from './admin-rosters'
import { can, runsTheSite } from '@/lib/authorization'
import { PageHead } from '@/components/layout/page-head'
import { useFirstDeferred } from '@/lib/use-first-deferred'
import { seasonName } from '@/lib/season-name'

function AdminBoard({ tournament }: { tournament: string }) {
  const qc = useQueryClient()
  const { user } = useSession()
  const auction = useAuction(tournament)
  const info = useTournamentInfo(tournament)
  const closeLot = useCloseLot(tournament)
  const voidSale = useVoidSale(tournament)
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: auctionKey(tournament) })
    void qc.invalidateQueries({ queryKey: auditKey(tournament) })
  }
  // A change of the phase, the season's identity, the cap, the check-in or the waitlist is also a new
  // line of the audit log (which follows the auction and the matches itself); a promotion adds to the pool.
  useLiveTopic('registrations', {
    onEvent: (ev) => {
      if (['tournament.status', 'tournament.updated', 'stats.updated', 'registration.updated', 'registration.places'].includes(ev.event)) refresh()
    },
  })

  // The board renders in the background the first time (it is the page's biggest).
  const view = useFirstDeferred(auction.data)
  if (auction.isLoading || (auction.data && !view)) return <Spinner label="Loading the auction" />
  if (!view) return <EmptyState title="The auction could not be loaded." />
  const status = info.data?.status ?? view.status
  const running = status === 'auction'
  const lot = view.lot
  const flow = view.flow ?? NO_FLOW

  return (
    <div className="admin-layout">
      <PhaseControl tournament={tournament} status={status} onChanged={refresh} />
      <SeasonAdmin tournament={tournament} />
      {status === 'registration' || status === 'auction' ? (
        <RegistrationAdmin
          tournament={tournament}
          status={status}
          captains={new Set(view.teams.flatMap((t) => (t.captain ? [String(t.captain.user_id)] : [])))}
        />
      ) : null}
      {status === 'registration' || status === 'auction' ? (
        <FlowAdmin
          tournament={tournament}
          flow={flow}
          offset={view.offset}
          running={running}
          canSetTurns
          lastSale={view.sold.length ? view.sold[view.sold.length - 1] : null}
        />
      ) : null}
      <section className="admin-card admin-lot" aria-labelledby="lot-admin-title">
        <div className="card-head">
          <h2 id="lot-admin-title">Lot</h2>
          {lot ? (
            <ConfirmAction
              label="Close lot now"
              question={`Close the lot of ${lot.player.name} now?`}
              detail={lot.high_bid ? `It sells to team ${lot.high_bid.team} for ${lot.high_bid.amount}.` : 'Nobody has bid: the player goes back to the pool unsold.'}
              confirmLabel="Yes, close it"
              cancelLabel="Keep it open"
              busyLabel="Closing…"
              className="btn btn-danger-ghost btn-sm"
              onConfirm={() => closeLot.mutateAsync(lot.id)}
            />
          ) : null}
        </div>
        <LotStage lot={lot} offset={view.offset} lotSeconds={view.rules?.lot_seconds ?? 20} idle={running ? 'No lot open: put a player up from the queue.' : idleText(status)} />
        <ErrorMessage error={lastFailure([closeLot, 'The lot could not be closed.'], [voidSale, 'The sale could not be voided.'])} />
      </section>
      <QueueAdmin
        tournament={tournament}
        status={status}
        pool={view.pool}
        unsold={view.unsold}
        rules={view.rules}
        canOpen={running && !lot && !flow.paused}
        whyNot={
          !running ? 'Lots open during the auction phase.' : flow.paused ? 'The auction is paused: resume it to open a lot.' : 'A lot is open: close it or let it run out first.'
        }
        onChanged={refresh}
      />
      <section className="admin-card" aria-labelledby="sales-title">
        <h2 id="sales-title">Sales ({view.sold.length})</h2>
        {!running && view.sold.length > 0 ? <p className="muted small">Sales are voided only while the auction runs: once it is over, rosters are final.</p> : null}
        <SoldList
          sold={view.sold}
          action={running ? (s) => (
            <ConfirmAction
              label="Void"
              question={`Void the sale of ${s.player.name} to team ${s.team}?`}
              detail={`Team ${s.team} gets ${s.price} credits back and the player returns to the pool.`}
              confirmLabel="Yes, void it"
              cancelLabel="Keep the sale"
              busyLabel="Voiding…"
              className="btn btn-danger-ghost btn-sm"
              onConfirm={() => voidSale.mutateAsync(s.lot_id)}
            />
          ) : undefined}
        />
        <h3>Unsold ({view.unsold.length})</h3>
        <UnsoldList unsold={view.unsold} />
      </section>
      <CaptainsAdmin
        tournament={tournament}
        teams={view.teams}
        candidates={view.pool.map((p) => ({ id: p.user_id, name: p.name }))}
        open={status === 'registration' || status === 'auction'}
      />
      <section className="admin-card admin-teams" aria-labelledby="admin-teams-title">
        <h2 id="admin-teams-title">Teams</h2>
        <TeamsBoard teams={view.teams} leading={lot?.high_bid?.team ?? null} compact />
      </section>
      {status === 'auction' || status === 'matches' ? <AdminRosters tournament={tournament} status={status} /> : null}
      {runsTheSite(user) ? <StaffAdmin tournament={tournament} /> : null}
      <AuditLog tournament={tournament} />
    </div>
  )
}

export default function AdminRoute() {
  const tournament = useTournamentName()
  const { user, isLoading } = useSession()
  const name = seasonName(useTournamentInfo(tournament).data, tournament)

  useEffect(() => {
    document.title = `Organisers · ${name} · Pitlane`
  }, [name])

  return (
    <div className="page admin-page">
      <PageHead
        kicker="Organisers"
        title={<>Admin · {name}</>}
      />
      {isLoading ? (
        <Spinner label="Checking your account" />
      ) : user?.security?.organiser_locked ? (
        <OrganiserGate page={false}>{null}</OrganiserGate>
      ) : !can(user, 'organise', tournament) ? (
        <EmptyState title="Organisers only.">
          <p>This page runs the league: the phases, the captains, the tiers and the auction. It is open to the league’s organisers.</p>
          {user ? (
            <Link to="/auction" className="btn btn-ghost">
              Watch the auction
            </Link>
          ) : (
            <button type="button" className="btn btn-primary" onClick={() => openAuthModal('login')}>
              Sign in
            </button>
          )}
        </EmptyState>
      ) : (
        <>
          <AdminNav />
          <AdminBoard tournament={tournament} />
        </>
      )}
    </div>
  )
}
