// The caller's rooms: their team's, then their matches', each with its unread count.
import { Link } from '@/lib/router'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { useRooms } from '../api/rooms'

export function RoomList({ current }: { current?: number }) {
  const rooms = useRooms()
  if (rooms.isLoading) return <Spinner label="Loading your rooms" />
  if (rooms.isError) return <ErrorMessage error={rooms.error} fallback="Your rooms could not be loaded." />
  const list = rooms.data?.rooms ?? []
  if (list.length === 0) {
    return <EmptyState title="No rooms yet">A room opens for your team once the auction names it, and one for each of its matches.</EmptyState>
  }
  return (
    <nav aria-label="Your rooms">
      <ul className="rooms-list">
        {list.map((r) => (
          <li key={r.id}>
            <Link href={`/rooms/${r.id}`} className={`rooms-item ${r.id === current ? 'active' : ''}`} aria-current={r.id === current ? 'page' : undefined}>
              <span className="rooms-kind">{r.kind === 'team' ? `Team ${r.team}` : 'Match'}</span>
              <span className="rooms-title">{r.title}</span>
              {r.unread > 0 ? (
                <span className="rooms-unread" aria-label={`${r.unread} unread`}>
                  {r.unread}
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
