// The line a room is written in (the captains room, the team and match rooms): a labelled text box
// bounded to the room's length and a Send button, off while sending or empty.
import { useId, type FormEvent } from 'react'

type Props = {
  value: string
  onChange: (text: string) => void
  onSend: () => void
  busy: boolean
  max: number
  label: string
  placeholder: string
}

export function MessageForm({ value, onChange, onSend, busy, max, label, placeholder }: Props) {
  const inputId = useId()
  function submit(e: FormEvent) {
    e.preventDefault()
    if (value.trim()) onSend()
  }
  return (
    <form className="room-form" onSubmit={submit}>
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <input
        id={inputId}
        type="text"
        value={value}
        maxLength={max}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        disabled={busy}
        autoComplete="off"
      />
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy || !value.trim()}>
        Send
      </button>
    </form>
  )
}
