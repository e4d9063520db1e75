// The players who can go under the hammer, by tier: tiers are set here, and lots opened.
import { useId, useState } from 'react'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { useOpenLot } from '../api/open-lot'
import { useSetTier } from '../api/set-tier'
import { MAX_PRICE, MIN_PRICE } from '../lib/bids'
import type { AuctionRules, PlayerRef, TournamentStatus, Unsold } from '../types'
import { WithdrawPlayer } from './admin-withdraw'
import { credits, figures, TierBadge } from './bits'

/** The pool as groups by tier, strongest first. */
export function groupByTier(pool: PlayerRef[]): { tier: number; players: PlayerRef[] }[] {
  const groups = new Map<number, PlayerRef[]>()
  for (const p of pool) groups.set(p.tier, [...(groups.get(p.tier) ?? []), p])
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([tier, players]) => ({ tier, players }))
}

export function basePriceOf(rules: AuctionRules | undefined, tier: number): number {
  return rules?.tier_prices?.[String(tier)]?.base_price ?? MIN_PRICE
}

type Props = {
  tournament: string
  /** The season's phase: players are withdrawn from the queue while registering or during the auction. */
  status?: TournamentStatus
  pool: PlayerRef[]
  unsold: Unsold[]
  rules: AuctionRules
  /** Lots open only during the auction, one at a time. */
  canOpen: boolean
  whyNot: string
  onChanged: () => void
}

function TierSelect({ tournament, player, onChanged }: { tournament: string; player: PlayerRef; onChanged: () => void }) {
  const setTier = useSetTier(tournament, player.user_id)
  const id = useId()
  function change(tier: number) {
    setTier.mutate(tier, { onSuccess: () => onChanged() })
  }
  return (
    <span className="tier-select">
      <label htmlFor={id} className="sr-only">
        Tier of {player.name}
      </label>
      <select id={id} value={player.tier} disabled={setTier.isPending} onChange={(e) => change(Number(e.target.value))}>
        {[1, 2, 3, 4].map((t) => (
          <option key={t} value={t}>
            Tier {t}
          </option>
        ))}
        <option value={0}>From stats</option>
      </select>
      <ErrorMessage error={setTier.error} fallback="The tier could not be set." />
    </span>
  )
}

export function QueueAdmin({ tournament, status, pool, unsold, rules, canOpen, whyNot, onChanged }: Props) {
  const [picked, setPicked] = useState<PlayerRef | null>(null)
  const [base, setBase] = useState('')
  const openLot = useOpenLot(tournament)
  const baseId = useId()
  const unsoldIds = new Set(unsold.map((u) => u.player.user_id))
  // The pick is dropped when its player leaves the pool (put up elsewhere, made captain).
  const current = picked && pool.some((p) => p.user_id === picked.user_id) ? picked : null

  function pick(p: PlayerRef) {
    setPicked(p)
    setBase(String(basePriceOf(rules, p.tier)))
  }

  function open() {
    if (!current) return
    openLot.mutate(
      { userId: current.user_id, basePrice: Number(base) || 0 },
      {
        onSuccess: () => {
          setPicked(null)
          onChanged()
        },
      },
    )
  }

  return (
    <section className="admin-card queue" aria-labelledby="queue-title">
      <h2 id="queue-title">Player queue</h2>
      <p className="muted">
        {pool.length} {pool.length === 1 ? 'player' : 'players'} not yet sold ({unsoldIds.size} unsold once). Tiers set a lot’s base price
        and step.
      </p>
      <div className="next-lot" aria-live="polite">
        {current ? (
          <>
            <span>
              Next lot: <strong>{current.name}</strong> <TierBadge tier={current.tier} />
            </span>
            <label htmlFor={baseId}>Base price</label>
            <input
              id={baseId}
              type="number"
              inputMode="numeric"
              min={MIN_PRICE}
              max={MAX_PRICE}
              step={50}
              value={base}
              onChange={(e) => setBase(e.target.value)}
            />
            <ActionButton className="btn btn-primary btn-sm" onClick={open} disabled={!canOpen} pending={openLot.isPending} pendingLabel="Opening…">
              Open lot
            </ActionButton>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setPicked(null)}>
              Cancel
            </button>
          </>
        ) : (
          <span className="muted">{canOpen ? 'Pick a player below to put them up.' : whyNot}</span>
        )}
      </div>
      <ErrorMessage error={openLot.error} fallback="The lot could not be opened." />
      {groupByTier(pool).map((g) => (
        <div key={g.tier} className="queue-tier">
          <h3>
            Tier {g.tier} <small className="muted">base {credits(basePriceOf(rules, g.tier))} · {g.players.length}</small>
          </h3>
          <ul className="queue-list">
            {g.players.map((p) => (
              <li key={p.user_id} className={current?.user_id === p.user_id ? 'is-picked' : ''}>
                <span className="queue-name">
                  <strong>{p.name}</strong>
                  <small className="muted">
                    {figures(p, { level: false })}
                  </small>
                </span>
                {unsoldIds.has(p.user_id) ? <span className="unsold-tag">Unsold</span> : null}
                <TierSelect tournament={tournament} player={p} onChanged={onChanged} />
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => pick(p)} disabled={!canOpen} aria-label={`Put up ${p.name}`}>
                  Put up
                </button>
                {status === 'registration' || status === 'auction' ? <WithdrawPlayer tournament={tournament} status={status} player={p} /> : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  )
}
