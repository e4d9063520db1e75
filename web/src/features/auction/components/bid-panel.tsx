// The captain's bidding: one button per allowed next amount, or the reason there is none. While a lot is
// open the panel is also the phone's bid bar: on a narrow screen it stays at the bottom of the screen with
// the player's name, the countdown and the high bid, so the captain bids with a thumb and no scrolling.
import { useState } from 'react'
import { Message } from '@/components/ui/popup'
import { ApiError } from '@/lib/api-client'
import { usePlaceBid } from '../api/place-bid'
import { bidBlock, blockText, maxBid, nextBids } from '../lib/bids'
import { formatSeconds } from '../lib/countdown'
import { useLotCountdown } from '../lib/use-lot-countdown'
import type { LeagueTeam, Lot } from '../types'
import { credits, teamTitle } from './bits'

/** A refusal of the server in plain words: its own message, with what kind of refusal it is. */
export function bidRefusal(err: unknown): string {
  if (!(err instanceof ApiError)) return 'The bid did not reach the server. Check your connection and bid again.'
  const msg = err.serverMessage
  switch (err.status) {
    case 409:
      return msg ? `Too late: ${msg}` : 'Too late: someone outbid you or the lot closed.'
    case 422:
      return msg ? `Not allowed: ${msg}` : 'Not allowed by the auction rules.'
    case 429:
      return `Slow down: too many bids. Try again in ${err.retryAfter ?? 'a few'} seconds.`
    case 401:
      return 'Your session ended. Sign in again as captain.'
    case 403:
      return msg ?? 'Only captains bid.'
    default:
      return msg ?? 'The bid failed. Try again.'
  }
}

type Props = { tournament: string; lot: Lot | null; team: LeagueTeam; offset: number; teams?: LeagueTeam[] }

/**
 * The high bid of another team over the team's best bid on the lot (placed now or read with the lot),
 * or null: what the captain must hear the moment the live bid arrives.
 */
export function outbidBy(lot: Lot | null, team: string, placed?: number): Lot['high_bid'] {
  const high = lot?.high_bid
  if (!lot || lot.status !== 'open' || !high || high.team === team) return null
  const ours = Math.max(placed ?? 0, ...(lot.bids ?? []).filter((b) => b.team === team).map((b) => b.amount))
  return ours > 0 && high.amount > ours ? high : null
}

export function BidPanel({ tournament, lot, team, offset, teams = [] }: Props) {
  const left = useLotCountdown(lot?.ends_at, offset)
  const placeBid = usePlaceBid(tournament)
  const busy = placeBid.isPending ? (placeBid.variables?.amount ?? null) : null
  const [result, setResult] = useState<{ kind: 'error' | 'success'; text: string; lot: number; amount?: number } | null>(null)
  const block = bidBlock(lot, team, left)
  // While leading or after the bell the amounts stay in view, disabled: what the others must beat.
  const amounts = lot && (block === null || block === 'leading' || block === 'closed') ? nextBids(lot, team, 4) : []
  // A message belongs to the lot it was about; a bid placed and since beaten says who beat it (a
  // refusal of the captain's last try stands: it says the same in the server's words).
  const own = result && lot && result.lot === lot.id ? result : null
  const beaten = own?.kind === 'error' ? null : outbidBy(lot, team.id, own?.amount)
  const by = beaten ? teamTitle(teams.find((t) => t.id === beaten.team) ?? { id: beaten.team, name: '' }) : ''
  const shown = beaten ? { kind: 'error' as const, text: `Outbid by ${by}: ${credits(beaten.amount)}.` } : own

  function bid(amount: number) {
    if (!lot) return
    const about = lot.id
    setResult(null)
    placeBid.mutate(
      { lotId: about, amount },
      {
        onSuccess: () => setResult({ kind: 'success', text: `Bid placed: ${credits(amount)} for ${teamTitle(team)}.`, lot: about, amount }),
        onError: (err) => setResult({ kind: 'error', text: bidRefusal(err), lot: about }),
      },
    )
  }

  const live = lot?.status === 'open'
  return (
    <section className={live ? 'bid-panel is-live' : 'bid-panel'} aria-labelledby="bid-title" data-testid="bid-panel">
      {live ? (
        <p className="bid-now" aria-hidden="true">
          <span className="bid-now-player">{lot.player.name}</span>
          <span className={left <= 10 && block !== 'paused' ? 'bid-now-clock is-urgent' : 'bid-now-clock'}>
            {block === 'paused' ? 'Paused' : formatSeconds(left)}
          </span>
          <span className="bid-now-high">
            {lot.high_bid ? `High ${credits(lot.high_bid.amount)} · Team ${lot.high_bid.team}` : `Opening ${credits(lot.base_price)}`}
          </span>
        </p>
      ) : null}
      <h2 id="bid-title">Bid for {teamTitle(team)}</h2>
      <p className="muted bid-limits">
        Purse left {credits(team.purse_left)} · {team.free_slots} free {team.free_slots === 1 ? 'slot' : 'slots'} · max bid{' '}
        {credits(maxBid(team.purse_left, team.free_slots))}
      </p>
      {amounts.length ? (
        <div className="bid-buttons">
          {amounts.map((a, i) => (
            <button
              key={a}
              type="button"
              className={`btn ${i === 0 ? 'btn-primary' : 'btn-ghost'} bid-btn`}
              disabled={busy !== null || block !== null}
              onClick={() => bid(a)}
            >
              {busy === a ? 'Bidding…' : `Bid ${credits(a)}`}
            </button>
          ))}
        </div>
      ) : null}
      {block ? (
        <p className={`bid-block bid-block-${block}`} role="status">
          {blockText(block, team)}
        </p>
      ) : null}
      {shown ? <Message kind={shown.kind}>{shown.text}</Message> : null}
    </section>
  )
}
