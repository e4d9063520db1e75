import { useState, type FormEvent } from 'react'
import { api, errorMessage } from '@/lib/api-client'

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function NewsletterForm() {
  const [email, setEmail] = useState('')
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!EMAIL_RE.test(email.trim())) {
      setStatus({ kind: 'error', text: 'Please enter a valid e-mail address.' })
      return
    }
    setBusy(true)
    setStatus(null)
    try {
      const res = await api.post<{ message?: string }>('/newsletter', { email: email.trim() })
      setStatus({ kind: 'success', text: res?.message || 'Subscribed! League news will reach your inbox.' })
      setEmail('')
    } catch (err) {
      setStatus({ kind: 'error', text: errorMessage(err) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="newsletter" onSubmit={submit} noValidate>
      <label htmlFor="newsletter-email">Get league news by e-mail</label>
      <div className="newsletter-row">
        <input
          id="newsletter-email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-describedby="newsletter-status"
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Subscribing…' : 'Subscribe'}
        </button>
      </div>
      <p id="newsletter-status" className={`msg ${status ? `msg-${status.kind}` : ''}`} role="status" aria-live="polite">
        {status?.text}
      </p>
    </form>
  )
}
