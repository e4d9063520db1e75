// One click to follow a player, a team or a tournament (docs/api.md, "Follows and blocks"), and a
// player's follower count where their setting lets the viewer see it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import './follow.css'

type Follow = { kind: string; id: string; name: string; friend?: boolean }
const MINE = ['me', 'follows'] as const

export function FollowButton({ kind, id, name }: { kind: 'player' | 'team' | 'tournament'; id: string; name: string }) {
  const { user } = useSession()
  const qc = useQueryClient()
  const mine = useQuery({
    queryKey: MINE,
    queryFn: ({ signal }) => api.get<{ items: Follow[] }>('/me/follows', signal),
    enabled: !!user,
  })
  const current = mine.data?.items.find((f) => f.kind === kind && f.id === id)
  const path = `/follows/${kind}/${encodeURIComponent(id)}`
  const toggle = useMutation({
    mutationFn: () => (current ? api.delete(path) : api.put(path, {})),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: MINE }), qc.invalidateQueries({ queryKey: ['followers', id] })]),
  })
  if (!user || (kind === 'player' && String(user.id) === id)) return null
  const following = !!current
  return (
    <span className="follow">
      <button
        type="button"
        className={`btn btn-sm ${following ? 'btn-ghost' : 'btn-primary'}`}
        aria-pressed={following}
        disabled={mine.isLoading || toggle.isPending}
        onClick={() => toggle.mutate()}
      >
        {following ? 'Following' : `Follow ${name}`}
      </button>
      {current?.friend ? <span className="muted follow-friend"> · friends</span> : null}
      {toggle.isError ? (
        <span className="form-error" role="alert">
          {' '}
          {(toggle.error as Error).message}
        </span>
      ) : null}
    </span>
  )
}

/** "12 followers · follows 3", when the player's setting lets the viewer see it. */
export function FollowCounts({ userId }: { userId: number }) {
  const q = useQuery({
    queryKey: ['followers', String(userId)],
    queryFn: ({ signal }) => api.get<{ followers: number; following: number }>(`/players/${userId}/followers?limit=1`, signal),
    retry: false,
  })
  if (!q.data) return null
  const { followers, following } = q.data
  return (
    <p className="muted follow-counts" data-testid="follow-counts">
      {followers} {followers === 1 ? 'follower' : 'followers'} · follows {following}
    </p>
  )
}
