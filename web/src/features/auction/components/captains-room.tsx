// The captains room: history on joining, new lines live, the server's refusals in its words.
import { useEffect, useRef, useState } from 'react'
import { MessageForm } from '@/components/ui/message-form'
import { ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api-client'
import { usePostMessage } from '../api/post-message'
import { useCaptainsRoom } from '../api/room'

export const ROOM_MAX = 500

/**
 * `names`: the captains' names as written on the teams (by user id); a line shows its author so,
 * rather than the account's Discord handle the server wrote it under (lower case by Discord's rules).
 */
export function CaptainsRoom({ tournament, me, names }: { tournament: string; me: number | string | null; names?: ReadonlyMap<number, string> }) {
  const room = useCaptainsRoom(tournament, true)
  const [text, setText] = useState('')
  const post = usePostMessage(tournament)
  const busy = post.isPending
  const list = useRef<HTMLOListElement>(null)
  const count = room.data?.messages.length ?? 0

  // The newest line stays in view as lines arrive.
  useEffect(() => {
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }, [count])

  const wait = post.error instanceof ApiError && post.error.status === 429 && post.error.retryAfter ? ` (wait ${post.error.retryAfter} s)` : ''
  const error = post.error ? errorMessage(post.error, 'The message was not sent.') + wait : ''

  return (
    <section className="room" aria-labelledby="room-title">
      <h2 id="room-title">Captains room</h2>
      {room.isLoading ? (
        <Spinner label="Loading the captains room" />
      ) : room.isError ? (
        <ErrorMessage error={room.error} fallback="The captains room could not be loaded." />
      ) : (
        <ol ref={list} className="room-lines" aria-label="Messages" aria-live="polite" data-testid="room-lines">
          {count === 0 ? <li className="muted room-empty">No messages yet. Say hello to the other captains.</li> : null}
          {room.data?.messages.map((m) => (
            <li key={m.id} className={`room-line ${String(m.user_id) === String(me) ? 'is-mine' : ''}`}>
              <span className="room-who">
                {m.team ? <span className="team-chip">{m.team}</span> : <span className="role-chip">Org</span>}
                <strong>{names?.get(m.user_id) ?? m.author}</strong>
                <time dateTime={m.at}>{new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</time>
              </span>
              <span className="room-text">{m.text}</span>
            </li>
          ))}
        </ol>
      )}
      <MessageForm value={text} onChange={setText} onSend={() => post.mutate(text, { onSuccess: () => setText('') })} busy={busy} max={ROOM_MAX} label="Message to the captains" placeholder="Message the captains…" />
      <ErrorMessage error={error} />
    </section>
  )
}
