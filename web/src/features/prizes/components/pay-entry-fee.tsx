import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { api, errorMessage } from '@/lib/api-client'
import { useSession } from '@/lib/auth'

type Status = { registered: boolean; status?: string; payment?: 'none' | 'pending' | 'paid' | 'refunded' }

/** The signed-in player's entry fee: a button to Stripe's checkout page while their place is held unpaid. */
export function PayEntryFee({ tournament, fee }: { tournament: string; fee: string }) {
  const { user } = useSession()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { data } = useQuery({
    queryKey: ['registration-payment', tournament],
    queryFn: ({ signal }) => api.get<Status>(`/tournament/status?tournamentName=${encodeURIComponent(tournament)}`, signal),
    enabled: !!user,
  })
  if (!user || !data?.registered) return null
  if (data.payment === 'paid') return <p className="pay-entry-fee is-paid">Your {fee} entry fee is paid.</p>
  if (data.payment !== 'pending') return null
  async function pay() {
    setBusy(true)
    setError(null)
    try {
      const { url } = await api.post<{ url: string }>(`/tournaments/${encodeURIComponent(tournament)}/payments/checkout`)
      window.location.assign(url)
    } catch (err) {
      setError(errorMessage(err, 'The payment page could not be opened.'))
      setBusy(false)
    }
  }
  return (
    <div className="pay-entry-fee" role="status">
      <p>Your place is held until you pay the entry fee.</p>
      <button type="button" className="btn btn-primary" onClick={pay} disabled={busy}>
        Pay {fee}
      </button>
      {error ? <p className="form-error">{error}</p> : null}
    </div>
  )
}
