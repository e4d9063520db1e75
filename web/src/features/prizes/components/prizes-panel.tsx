import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { usePrizes, type Prizes, type PublicPayout } from '../api/prizes'
import { formatMoney } from '../lib/money'
import { PayEntryFee } from './pay-entry-fee'

const SOURCES: { key: string; label: string }[] = [
  { key: 'organiser', label: 'Organiser' },
  { key: 'sponsor', label: 'Sponsors' },
  { key: 'entry_fee', label: 'Entry fees' },
  { key: 'contribution', label: 'Contributions' },
]

const STATE_LABEL: Record<PublicPayout['state'], string> = {
  pending: 'To be paid',
  paid: 'Paid',
  received: 'Received',
}

/** The public Prizes tab: the pool, its split and awards, where the money came from and each payout's state. */
export function PrizesPanel({ tournament }: { tournament: string }) {
  const { data, isLoading, isError } = usePrizes(tournament)
  if (isLoading) return <Spinner label="Loading the prizes" />
  if (isError) return <EmptyState title="The prizes could not be loaded." />
  if (!data) return <EmptyState title="This season plays for glory: it has no prize pool." />
  return <PrizesView prizes={data} />
}

export function PrizesView({ prizes: p }: { prizes: Prizes }) {
  const money = (v: number) => formatMoney(v, p.currency, p.exponent)
  const payouts = (label: string) => p.payouts.filter((x) => x.label === label)
  const funded = Math.min(p.funding.total, p.pool)
  const pct = (v: number) => (p.pool > 0 ? `${Math.max(0, Math.min(100, (v / p.pool) * 100))}%` : '0%')
  return (
    <section className="prizes" aria-label="Prizes">
      <div className="prizes-head">
        <div>
          <small>Prize pool</small>
          <strong data-testid="prize-pool">{money(p.pool)}</strong>
        </div>
        {p.entry_fee > 0 ? (
          <div>
            <small>Entry fee</small>
            <strong>{money(p.entry_fee)}</strong>
          </div>
        ) : null}
      </div>
      {p.payments ? <PayEntryFee tournament={p.tournament} fee={money(p.entry_fee)} /> : null}

      <div className="prizes-grid">
        <div className="table-scroll">
          <table className="league-table prizes-table">
            <caption className="sr-only">Prizes by final place and awards</caption>
            <thead>
              <tr>
                <th scope="col" className="col-name">
                  Prize
                </th>
                <th scope="col">Amount</th>
                <th scope="col">Payout</th>
              </tr>
            </thead>
            <tbody>
              {[...p.split, ...p.awards].map((line) => (
                <tr key={line.label}>
                  <th scope="row" className="col-name">
                    {line.place ? `${line.label} place` : line.label}
                  </th>
                  <td className="col-points">{money(line.amount)}</td>
                  <td>
                    <PayoutStates list={payouts(line.label)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>

        <div className="prizes-funding" aria-label="Funding">
          <h3>Where the money comes from</h3>
          <div className="funding-bar" role="img" aria-label={`${money(funded)} of ${money(p.pool)} funded`}>
            {SOURCES.map((s) =>
              (p.funding.sources[s.key] ?? 0) > 0 ? (
                <span key={s.key} className={`funding-${s.key}`} style={{ width: pct(p.funding.sources[s.key]) }} />
              ) : null,
            )}
          </div>
          <dl>
            {SOURCES.map((s) => (
              <div key={s.key} className={`funding-row funding-row-${s.key}`}>
                <dt>{s.label}</dt>
                <dd>{money(p.funding.sources[s.key] ?? 0)}</dd>
              </div>
            ))}
            <div className="funding-row funding-row-total">
              <dt>Funded</dt>
              <dd>{money(p.funding.total)}</dd>
            </div>
            <div className={`funding-row funding-row-unfunded${p.funding.unfunded > 0 ? ' is-short' : ''}`}>
              <dt>Still unfunded</dt>
              <dd data-testid="prize-unfunded">{money(p.funding.unfunded)}</dd>
            </div>
            <div className="funding-row">
              <dt>Paid out</dt>
              <dd>{money(p.ledger.paid_out)}</dd>
            </div>
          </dl>
        </div>
      </div>
      <p className="table-rules">
        Amounts are exact to the {p.exponent > 0 ? 'cent' : 'unit'}. A team’s prize goes{' '}
        {p.team_share === 'captain' ? 'to its captain' : 'to its players in equal shares'}.
      </p>
    </section>
  )
}

function PayoutStates({ list }: { list: PublicPayout[] }) {
  if (list.length === 0) return <span className="payout-state is-none">After the final</span>
  const states = [...new Set(list.map((x) => x.state))]
  // A team's prize paid to several players shows its least advanced state.
  const order: PublicPayout['state'][] = ['pending', 'paid', 'received']
  const least = order.find((s) => states.includes(s)) ?? 'pending'
  return (
    <span className={`payout-state is-${least}`}>
      {STATE_LABEL[least]}
      {list[0].team ? <small> · {list[0].team}</small> : null}
    </span>
  )
}
