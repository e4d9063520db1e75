// /overlay/auction: the lot under the hammer as a lower third (player, tier, high bid, leading team,
// countdown), the hammer's fall as a banner, live over the site's websocket (topic `teams`).
import { Avatar } from '@/components/ui/avatar'
import { useNow } from '@/lib/use-now'
import { useAuction, type AuctionData } from '@/features/auction/api/auction'
import { credits, figures } from '@/features/auction/components/bits'
import { formatSeconds } from '@/features/auction/lib/countdown'
import { useLotCountdown } from '@/features/auction/lib/use-lot-countdown'
import type { Lot } from '@/features/auction/types'
import { useTournamentInfo } from '@/features/tournament/api/registrations'
import { TeamBadge } from '@/components/ui/team-badge'
import { OverlayFrame, useOverlayOptions } from './components/overlay-frame'
import { closingBanner, teamByLetter, teamLabel, type LastResult } from './lib/model'
import { CheerBar } from '@/components/cheers/cheer-bar'

function LotBar({ lot, view }: { lot: Lot; view: AuctionData }) {
  const left = useLotCountdown(lot.ends_at, view.offset)
  const open = lot.status === 'open' && left > 0
  const share = Math.min(1, left / Math.max(1, view.rules?.lot_seconds ?? 20))
  const high = lot.high_bid
  const leader = high ? teamByLetter(view.teams, high.team) : null
  return (
    <section className={`ov-panel ov-lot ${open && left <= 10 ? 'is-urgent' : ''}`} data-lot-id={lot.id} aria-label="Under the hammer">
      <div className="ov-lot-player">
        <Avatar src={lot.player.image} name={lot.player.name} size={148} />
        <div>
          <p className="ov-kicker">
            Lot {lot.id} · <span className={`ov-tier tier-${lot.player.tier}`}>Tier {lot.player.tier}</span>
          </p>
          <p className="ov-name" data-testid="overlay-player">
            {lot.player.name}
          </p>
          <p className="ov-sub">
            {figures(lot.player)}
          </p>
        </div>
      </div>
      <div className="ov-lot-bid" aria-live="polite">
        <p className="ov-kicker">{high ? 'High bid' : 'Opening bid'}</p>
        <p className="ov-amount" data-testid="overlay-high-bid">
          {credits(high ? high.amount : lot.base_price)}
        </p>
        <p className="ov-leader" data-testid="overlay-leader">
          {high ? (
            <>
              <TeamBadge letter={high.team} logo={leader?.logo} size={52} />
              {teamLabel(leader, high.team)}
            </>
          ) : (
            'No bid yet'
          )}
        </p>
      </div>
      <div className="ov-lot-clock" role="timer">
        <p className="ov-clock" data-testid="overlay-countdown">
          {open ? formatSeconds(left) : 'Closed'}
        </p>
        <span className="ov-clock-bar" aria-hidden="true">
          <span style={{ transform: `scaleX(${open ? share : 0})` }} />
        </span>
      </div>
    </section>
  )
}

function Banner({ result, view }: { result: LastResult; view: AuctionData }) {
  if (result.kind === 'unsold') {
    return (
      <section className="ov-banner is-unsold" data-testid="overlay-banner">
        <p className="ov-stamp">Unsold</p>
        <p className="ov-banner-line">{result.unsold.player.name} goes back to the pool</p>
      </section>
    )
  }
  const { sale } = result
  const team = teamByLetter(view.teams, sale.team)
  return (
    <section className="ov-banner is-sold" data-testid="overlay-banner">
      <p className="ov-stamp">Sold</p>
      <p className="ov-banner-line">
        {sale.player.name} <span className="ov-arrow">→</span> <TeamBadge letter={sale.team} logo={team?.logo} size={56} />{' '}
        {teamLabel(team, sale.team)} · <strong>{credits(sale.price)}</strong>
      </p>
    </section>
  )
}

function idleLine(status: string | undefined) {
  switch (status) {
    case 'auction':
      return 'Auction live · the next player is coming up'
    case 'registration':
      return 'The auction starts when registration closes'
    default:
      return 'The auction is over'
  }
}

export default function AuctionOverlay() {
  const options = useOverlayOptions()
  const { data: view } = useAuction(options.tournament)
  const { data: info } = useTournamentInfo(options.tournament)
  // The banner's hold is reckoned on the server's clock; a second's tick is enough for it.
  const now = useNow(1_000)
  const lot = view?.lot && view.lot.status === 'open' ? view.lot : null
  const banner = view ? closingBanner(view, now + view.offset, options.hold) : null
  return (
    <OverlayFrame kind="auction" options={options}>
      <CheerBar topic="teams" buttons={false} />
      {view && lot ? <LotBar lot={lot} view={view} /> : null}
      {view && banner ? <Banner result={banner} view={view} /> : null}
      {view && !lot && !banner ? (
        <p className="ov-panel ov-idle" data-testid="overlay-idle">
          <strong>{info?.display_name || view.tournament}</strong> {idleLine(view.status)}
        </p>
      ) : null}
    </OverlayFrame>
  )
}
