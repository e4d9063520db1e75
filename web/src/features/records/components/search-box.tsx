import { useState, type FormEvent } from 'react'
import { useNavigate } from '@/lib/router'

/**
 * A search for a player's or a team's name, or a part of it: the header's and the search page's.
 * `label` names its landmark, so that two on one page tell themselves apart (axe's landmark-unique).
 */
export function SearchBox({ label, onDone }: { label: string; onDone?: () => void }) {
  const navigate = useNavigate()
  const [q, setQ] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const text = q.trim()
    if (!text) return
    navigate(`/search?q=${encodeURIComponent(text)}`)
    onDone?.()
  }
  return (
    <form className="search-box" role="search" aria-label={label} onSubmit={submit}>
      <input
        type="search"
        name="q"
        value={q}
        maxLength={40}
        placeholder="Find a player or team"
        aria-label="Find a player or team"
        onChange={(e) => setQ(e.target.value)}
      />
    </form>
  )
}
