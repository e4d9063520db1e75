// The captain's nomination on their team's turn: any player of the pool, at their tier's base price.
import { useId, useState } from 'react'
import { Message } from '@/components/ui/popup'
import { errorMessage } from '@/lib/api-client'
import { useNominate } from '../api/nominate'
import type { AuctionFlow, Lot, PlayerRef } from '../types'
import { FlowStatus } from './flow-status'

type Props = { tournament: string; flow: AuctionFlow | undefined; team: string; pool: PlayerRef[]; lot: Lot | null; offset: number }

export function NominatePanel({ tournament, flow, team, pool, lot, offset }: Props) {
  const nominate = useNominate(tournament)
  const [picked, setPicked] = useState('')
  const id = useId()
  if (!flow || (!flow.turn_seconds && !flow.paused)) return null
  const mine = flow.turn === team
  const canNominate = mine && !lot && !flow.paused && flow.turn_ends_at !== null
  const choice = pool.some((p) => String(p.user_id) === picked) ? picked : String(pool[0]?.user_id ?? '')
  return (
    <section className="bid-panel nominate-panel" aria-labelledby="nominate-title">
      <h2 id="nominate-title">Nominate</h2>
      <FlowStatus flow={flow} offset={offset} own={team} />
      {canNominate ? (
        <div className="flow-row">
          <label htmlFor={id} className="sr-only">
            Player to put up
          </label>
          <select id={id} value={choice} onChange={(e) => setPicked(e.target.value)}>
            {pool.map((p) => (
              <option key={p.user_id} value={p.user_id}>
                {p.name} · tier {p.tier}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={nominate.isPending || !choice}
            onClick={() => nominate.mutate(Number(choice))}
          >
            {nominate.isPending ? 'Nominating…' : 'Nominate'}
          </button>
        </div>
      ) : flow.turn_seconds > 0 ? (
        <p className="muted small">
          {mine && lot ? 'Your turn comes once this lot closes.' : mine ? 'Your turn waits while the auction is paused.' : 'Captains nominate in turn, A to H.'}
        </p>
      ) : null}
      {nominate.error ? <Message kind="error">{errorMessage(nominate.error, 'The player could not be nominated.')}</Message> : null}
    </section>
  )
}
