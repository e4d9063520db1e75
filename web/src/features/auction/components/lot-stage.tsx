// The player under the hammer: their card, the countdown, the high bid and the lot's bids.
import { memo, type ReactNode } from 'react'
import { Avatar } from '@/components/ui/avatar'
import { clockSeconds } from '@/lib/time'
import { bidsNewestFirst } from '../lib/auction-reducer'
import { formatSeconds } from '../lib/countdown'
import { useLotCountdown } from '../lib/use-lot-countdown'
import type { Lot, PlayerRef } from '../types'
import { credits, figures, TierBadge } from './bits'
import { pausedSeconds } from './flow-status'

/** The player as the auction knows them, when the full card is not to hand. */
export function PlayerRefCard({ player }: { player: PlayerRef }) {
  return (
    <div className="ref-card">
      <Avatar src={player.image} name={player.name} size={64} />
      <div>
        <p className="ref-name">{player.name}</p>
        <p className="muted">
          {figures(player)}
        </p>
      </div>
    </div>
  )
}

type Bid = NonNullable<Lot['bids']>[number]

/** One bid of the list: memoised, so a new bid renders one row (and un-tops the previous one). */
const BidRow = memo(function BidRow({ bid: b, top }: { bid: Bid; top: boolean }) {
  return (
    <li className={top ? 'is-top' : ''}>
      <span className="team-chip">{b.team}</span>
      <span>Team {b.team}</span>
      <strong>{credits(b.amount)}</strong>
      <time dateTime={b.at}>{clockSeconds(b.at)}</time>
    </li>
  )
})

type Props = {
  lot: Lot | null
  offset: number
  lotSeconds: number
  /** The player's full card (from the registrations list), else a short one is shown. */
  card?: ReactNode
  /** Shown when no lot is open. */
  idle?: ReactNode
}

/** The lot's frame with no lot open, saying why (idle). */
export function IdleLot({ idle }: { idle?: ReactNode }) {
  return (
    <section className="lot-stage is-idle" aria-labelledby="lot-title">
      <h2 id="lot-title" className="lot-kicker">
        Under the hammer
      </h2>
      <p className="lot-idle">{idle ?? 'No player is under the hammer right now. The next lot appears here the moment it opens.'}</p>
    </section>
  )
}

export function LotStage({ lot, offset, lotSeconds, card, idle }: Props) {
  const running = useLotCountdown(lot?.paused_left_ms == null ? lot?.ends_at : null, offset)
  const paused = lot?.status === 'open' && lot.paused_left_ms != null
  // A paused lot's clock stays at its time left.
  const left = paused ? pausedSeconds(lot.paused_left_ms ?? 0) : running
  if (!lot) return <IdleLot idle={idle} />
  const open = lot.status === 'open' && left > 0
  const urgent = open && !paused && left <= 10
  const share = Math.min(1, left / Math.max(1, lotSeconds))
  const bids = bidsNewestFirst(lot)
  return (
    <section className={`lot-stage ${urgent ? 'is-urgent' : ''} ${paused ? 'is-paused' : ''}`} aria-labelledby="lot-title" data-lot-id={lot.id}>
      <div className="lot-top">
        <h2 id="lot-title" className="lot-kicker">
          Under the hammer · lot {lot.id}
        </h2>
        <TierBadge tier={lot.player.tier} />
      </div>
      <p className="lot-player" data-testid="lot-player">
        {lot.player.name}
      </p>
      <div className="lot-grid">
        <div className="lot-card">{card ?? <PlayerRefCard player={lot.player} />}</div>
        <div className="lot-figures">
          <div className="lot-clock" role="timer" aria-label={paused ? `Paused with ${left} seconds left` : open ? `${left} seconds left` : 'Bidding closed'}>
            {paused ? (
              <span className="lot-clock-paused" data-testid="lot-paused">
                Paused
              </span>
            ) : null}
            <span className="lot-clock-num" data-testid="lot-countdown">
              {open ? formatSeconds(left) : 'Closed'}
            </span>
            <span className="lot-clock-bar" aria-hidden="true">
              <span style={{ transform: `scaleX(${open ? share : 0})` }} />
            </span>
          </div>
          <div className="lot-high" aria-live="polite">
            {lot.high_bid ? (
              <>
                <span className="lot-high-label">High bid</span>
                <span className="lot-high-amount" data-testid="high-bid">
                  {credits(lot.high_bid.amount)}
                </span>
                <span className="lot-high-team">
                  <span className="team-chip">{lot.high_bid.team}</span> Team {lot.high_bid.team}
                </span>
              </>
            ) : (
              <>
                <span className="lot-high-label">Opening bid</span>
                <span className="lot-high-amount" data-testid="high-bid">
                  {credits(lot.base_price)}
                </span>
                <span className="lot-high-team muted">No bid yet</span>
              </>
            )}
          </div>
          <p className="lot-terms muted">
            Base {credits(lot.base_price)} · steps of {lot.increment}
          </p>
        </div>
      </div>
      <div className="lot-bids">
        <h3>Bids on this lot</h3>
        {bids.length ? (
          <ol className="bid-list" aria-label="Bids, newest first">
            {bids.map((b, i) => (
              <BidRow key={`${b.team}-${b.amount}-${b.at}`} bid={b} top={i === 0} />
            ))}
          </ol>
        ) : (
          <p className="muted">No bids yet.</p>
        )}
      </div>
    </section>
  )
}
