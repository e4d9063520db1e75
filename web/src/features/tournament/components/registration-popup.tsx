import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { REGISTRATION_COUNTDOWN_S } from '@/config/constants'

/**
 * 'Registration Successful!' counting down six seconds, then `onDone` (go to /tournament). A player
 * the tournament put on its waitlist is told so, with the server's words (`waitlisted`).
 */
export function RegistrationPopup({
  onDone,
  seconds = REGISTRATION_COUNTDOWN_S,
  waitlisted = '',
}: {
  onDone: () => void
  seconds?: number
  waitlisted?: string
}) {
  const [left, setLeft] = useState(seconds)
  const done = useRef(false)
  const finishOnce = useEffectEvent(() => finish())
  const btn = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    btn.current?.focus()
    const id = window.setInterval(() => setLeft((l) => Math.max(0, l - 1)), 1000)
    return () => window.clearInterval(id)
  }, [])

  useEffect(() => {
    if (left === 0) finishOnce()
  }, [left])

  function finish() {
    if (done.current) return
    done.current = true
    onDone()
  }

  return (
    <div className="reg-popup" role="alertdialog" aria-labelledby="reg-popup-title" aria-describedby="reg-popup-desc">
      <div className="reg-popup-badge" aria-hidden="true">
        ✓
      </div>
      <h3 id="reg-popup-title">{waitlisted ? 'You are on the waitlist' : 'Registration Successful!'}</h3>
      {waitlisted ? <p className="reg-popup-note">{waitlisted}</p> : null}
      <p id="reg-popup-desc">
        Redirecting to the tournament page in <span className="countdown" data-testid="countdown">{left}</span> s…
      </p>
      <button ref={btn} type="button" className="btn btn-primary" onClick={finish}>
        Go to Tournament Page now
      </button>
    </div>
  )
}
