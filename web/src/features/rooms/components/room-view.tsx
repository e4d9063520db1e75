// One room: its messages (plain text: links show as text), the box to write in, the server's
// refusals in its words (a mute's end, slow mode's wait), and deleting one's own recent message.
import { useEffect, useRef, useState } from 'react'
import { MessageForm } from '@/components/ui/message-form'
import { ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useNow } from '@/lib/use-now'
import { MESSAGE_MAX, useDeleteMessage, useRoom, useSendMessage } from '../api/rooms'

const EDIT_WINDOW_MS = 5 * 60_000

export function RoomView({ id, me }: { id: number; me: number | string | null }) {
  const room = useRoom(id)
  const now = useNow(15_000)
  const send = useSendMessage(id)
  const remove = useDeleteMessage(id)
  const [text, setText] = useState('')
  const list = useRef<HTMLOListElement>(null)
  const count = room.data?.messages.length ?? 0

  useEffect(() => {
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }, [count])

  const wait = send.error instanceof ApiError && send.error.status === 429 && send.error.retryAfter ? ` (wait ${send.error.retryAfter} s)` : ''
  const error = send.error ? errorMessage(send.error, 'The message was not sent.') + wait : remove.error ? errorMessage(remove.error, 'Not deleted.') : ''

  if (room.isLoading) return <Spinner label="Loading the room" />
  if (room.isError) return <ErrorMessage error={room.error} fallback="This room could not be loaded." />
  const r = room.data!.room
  return (
    <section className="room chat-room" aria-labelledby="chat-room-title">
      <h2 id="chat-room-title">{r.title}</h2>
      <p className="muted chat-room-meta">
        {r.kind === 'team' ? 'Your team, its captain and the staff' : 'Both captains and the staff'} · {r.tournament}
        {r.slow_seconds > 0 ? ` · slow mode: one message every ${r.slow_seconds} s` : ''}
      </p>
      <ol ref={list} className="room-lines chat-lines" aria-label="Messages" aria-live="polite">
        {count === 0 ? <li className="muted room-empty">No messages yet: agree on a lineup, a time, a substitute.</li> : null}
        {room.data!.messages.map((m) => {
          const mine = m.user_id !== null && String(m.user_id) === String(me)
          const recent = now - new Date(m.at).getTime() < EDIT_WINDOW_MS
          return (
            <li key={m.id} className={`room-line ${mine ? 'is-mine' : ''}`}>
              <span className="room-who">
                <strong>{m.author}</strong>
                {m.edited_at ? <span className="muted">(edited)</span> : null}
                <time dateTime={m.at}>{new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</time>
                {mine && recent ? (
                  <button type="button" className="btn btn-ghost btn-xs" onClick={() => remove.mutate(m.id)} aria-label="Delete my message">
                    Delete
                  </button>
                ) : null}
              </span>
              <span className="room-text">{m.text}</span>
            </li>
          )
        })}
      </ol>
      <MessageForm value={text} onChange={setText} onSend={() => send.mutate(text, { onSuccess: () => setText('') })} busy={send.isPending} max={MESSAGE_MAX} label="Message to the room" placeholder="Message the room… (@name to mention)" />
      <ErrorMessage error={error} />
    </section>
  )
}
