// /auction: the live auction for anyone, laid out for a big screen: the lot, every team's purse
// and roster, and the players sold and unsold.
import { useEffect, type ReactNode } from 'react'
import { EmptyState } from '@/components/ui/empty-state'
import { useTournamentName } from '@/config/app-config'
import { useAuction, type AuctionData } from '@/features/auction/api/auction'
import { FlowStatus } from '@/features/auction/components/flow-status'
import { IdleLot, LotStage, PlayerRefCard } from '@/features/auction/components/lot-stage'
import { SoldList, UnsoldList } from '@/features/auction/components/results'
import { TeamsBoard } from '@/features/auction/components/teams-board'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { PlayerSpotlight } from '@/features/tournament/components/player-spotlight'
import type { TournamentStatus } from '@/features/tournament/types'
import { PageHead } from '@/components/layout/page-head'
import { useFirstDeferred } from '@/lib/use-first-deferred'
import { offersFor } from '@/lib/phase'
import { phaseName, seasonName } from '@/lib/season-name'
import { CheerBar } from '@/components/cheers/cheer-bar'

export function idleText(status: TournamentStatus | undefined) {
  switch (status) {
    case 'registration':
      return 'The auction starts when registration closes. Captains bid for players here, live.'
    case 'matches':
    case 'completed':
      return 'The auction is over: the final rosters are below.'
    default:
      return 'No player is under the hammer right now. The next lot appears here the moment the organiser opens it.'
  }
}

/** The lot under the hammer with the player's full card, as every page of the auction shows it. */
export function LiveLot({ tournament, view, status }: { tournament: string; view: AuctionData; status: TournamentStatus | undefined }) {
  const lot = view.lot
  return (
    <LotStage
      lot={lot}
      offset={view.offset}
      lotSeconds={view.rules?.lot_seconds ?? 20}
      idle={idleText(status)}
      card={lot ? <PlayerSpotlight tournament={tournament} userId={lot.player.user_id} fallback={<PlayerRefCard player={lot.player} />} /> : null}
    />
  )
}

/**
 * The big screen before its data arrives: the same frames at the same sizes, so the first paint is
 * the page's layout (no spinner replaced by it) and nothing shifts when the lists fill in.
 */
export function AuctionSkeleton({ status }: { status: TournamentStatus | undefined }) {
  return (
    <div className="auction-layout is-loading" aria-busy="true">
      <div className="auction-main">
        {/* The frame the page will have: after the auction, no lot (phase unknown yet: keep it). */}
        {!status || offersFor(status, 'guest').lotStage ? <IdleLot idle={status ? idleText(status) : 'Loading the auction…'} /> : null}
        <div className="auction-results">
          <section aria-labelledby="sold-title">
            <h2 id="sold-title">Sold</h2>
            <div className="list-skeleton" />
          </section>
          <section aria-labelledby="unsold-title">
            <h2 id="unsold-title">Unsold</h2>
            <div className="list-skeleton" />
          </section>
        </div>
      </div>
      <section className="auction-teams" aria-labelledby="teams-title">
        <h2 id="teams-title">Teams</h2>
        <div className="list-skeleton list-skeleton-tall" />
      </section>
    </div>
  )
}

/** The page's kicker, as the server's first paint says it too (internal/api/firstpaint.html). */
export function auctionKicker(status: TournamentStatus | undefined): ReactNode {
  if (offersFor(status, 'guest').liveAuction)
    return (
      <>
        <span className="live-dot" aria-hidden="true" /> Live auction
      </>
    )
  if (!status) return 'Auction'
  return status === 'registration' ? 'Auction to come' : 'Auction results'
}

export default function AuctionRoute() {
  const tournament = useTournamentName()
  const auction = useAuction(tournament)
  const info = useTournamentInfo(tournament)
  const status = info.data?.status ?? auction.data?.status
  const name = seasonName(info.data, tournament)

  useEffect(() => {
    document.title = `Auction · ${name} · Pitlane`
  }, [name])

  // The board's first render runs in the background (it is the page's biggest); bids render at once.
  const view = useFirstDeferred(auction.data)
  // "Live" and what is still to go only while the auction runs; before and after, what it is.
  const live = offersFor(status, 'guest').liveAuction
  return (
    <div className="page auction-page">
      <PageHead
        kicker={auctionKicker(status)}
        title={<>Auction · {name}</>}
        meta={
          <p className="muted page-meta">
            {status ? <span className="status-pill" data-testid="phase">{phaseName(status)}</span> : null}
            {view ? ` ${view.sold.length} sold · ${view.unsold.length} unsold${live ? ` · ${view.pool.length} still to go` : ''}` : ''}
          </p>
        }
      />
      <CheerBar topic="teams" label="Cheer the auction" />
      {auction.isLoading || (auction.data && !view) ? (
        <AuctionSkeleton status={status} />
      ) : auction.isError || !view ? (
        <EmptyState title="The auction could not be loaded.">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => auction.refetch()}>
            Try again
          </button>
        </EmptyState>
      ) : (
        <div className="auction-layout">
          <div className="auction-main">
            {status === 'auction' ? <FlowStatus flow={view.flow} offset={view.offset} /> : null}
            {/* After the auction, no lot under the hammer: the results are the page. */}
            {offersFor(status, 'guest').lotStage ? <LiveLot tournament={tournament} view={view} status={status} /> : null}
            <div className="auction-results">
              <section aria-labelledby="sold-title">
                <h2 id="sold-title">Sold ({view.sold.length})</h2>
                <SoldList sold={view.sold} />
              </section>
              <section aria-labelledby="unsold-title">
                <h2 id="unsold-title">Unsold ({view.unsold.length})</h2>
                <UnsoldList unsold={view.unsold} />
              </section>
            </div>
          </div>
          <section className="auction-teams" aria-labelledby="teams-title">
            <h2 id="teams-title">Teams</h2>
            <TeamsBoard teams={view.teams} leading={view.lot?.high_bid?.team ?? null} compact />
          </section>
        </div>
      )}
    </div>
  )
}
