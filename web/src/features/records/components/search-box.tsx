import { useState, type FormEvent } from 'react'
import { useNavigate } from '@/lib/router'

/** The header's search: a player's or a team's name, or a part of it. */
export function SearchBox({ onDone }: { onDone?: () => void }) {
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
    <form className="search-box" role="search" onSubmit={submit}>
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
