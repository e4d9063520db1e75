// /rooms and /rooms/:id: the signed-in player's team and match rooms, the list beside the open room
// (on a phone, the list alone until a room is opened).
import { PageHead } from '@/components/layout/page-head'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useSession } from '@/lib/auth'
import { Link, useParams } from '@/lib/router'
import { RoomList } from '@/features/rooms/components/room-list'
import { RoomView } from '@/features/rooms/components/room-view'

export default function RoomsRoute() {
  const { id } = useParams()
  const { user, isLoading } = useSession()
  const current = id && /^\d+$/.test(id) ? Number(id) : undefined
  if (isLoading) return <Spinner label="Loading" />
  if (!user) {
    return (
      <div className="page rooms-page">
        <PageHead kicker="Rooms" title="Team rooms" />
        <EmptyState title="Sign in to see your rooms">Your team's room and your matches' rooms are for you and your teammates.</EmptyState>
      </div>
    )
  }
  return (
    <div className="page rooms-page">
      <PageHead kicker="Rooms" title="Team rooms" meta={<p>Where your team agrees on a lineup, a time or a substitute.</p>} />
      <div className={`rooms-layout ${current ? 'has-room' : ''}`}>
        <aside className="card rooms-aside">
          <RoomList current={current} />
        </aside>
        <div className="card rooms-main">
          {current ? (
            <>
              <Link href="/rooms" className="rooms-back">
                ← All rooms
              </Link>
              <RoomView key={current} id={current} me={user.id} />
            </>
          ) : (
            <p className="muted">Pick a room.</p>
          )}
        </div>
      </div>
    </div>
  )
}
