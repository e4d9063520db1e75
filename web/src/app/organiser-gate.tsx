// The organisers' pages ask a session that has not used its second factor for it, rather than
// turning the organiser away: once confirmed, the page opens as usual.
import type { ReactNode } from 'react'
import { SecondFactorPrompt } from '@/features/auth/components/second-factor-prompt'
import { tokenStore } from '@/lib/api-client'
import { useSession } from '@/lib/auth'

/** `page`: the gate stands as a page of its own (else inside the caller's page). */
export function OrganiserGate({ children, page = true }: { children: ReactNode; page?: boolean }) {
  const { user, setSession } = useSession()
  if (!user?.security?.organiser_locked) return <>{children}</>
  const card = (
    <section className="admin-card second-factor-card" aria-labelledby="second-factor-title">
      <h2 id="second-factor-title">Confirm it is you</h2>
      <SecondFactorPrompt security={user.security} onVerified={(u) => setSession(tokenStore.get() ?? '', u)} />
    </section>
  )
  return page ? <div className="page admin-page">{card}</div> : card
}
