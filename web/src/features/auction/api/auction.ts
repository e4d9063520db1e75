import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useLiveClient, useLiveTopic } from '@/lib/live'
import { applyAuctionEvent, replayAuctionEvents } from '../lib/auction-reducer'
import { clockOffset, raiseOffset } from '../lib/countdown'
import type { AuctionView } from '../types'

/** The view, with the estimated server-minus-client clock offset (ms) for its countdown. */
export type AuctionData = AuctionView & { offset: number }

export const auctionKey = (tournament: string) => ['tournament', tournament, 'auction'] as const

export const tournamentPath = (tournament: string) => `/tournaments/${encodeURIComponent(tournament)}`

/**
 * The auction (lot, bids, sales, teams' purses and rosters, the pool), kept live by topic `teams`.
 * A resync or a reconnect reads it again, so a page that was cut off shows the true state.
 */
export function useAuction(tournament: string) {
  const qc = useQueryClient()
  const live = useLiveClient()
  const key = auctionKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<AuctionData> => {
      const sentAt = Date.now()
      const view = await api.get<AuctionView>(`${tournamentPath(tournament)}/auction`, signal)
      const offset = clockOffset(view.now, sentAt, Date.now())
      const base: AuctionView = {
        ...view,
        sold: view.sold ?? [],
        unsold: view.unsold ?? [],
        pool: view.pool ?? [],
        teams: view.teams ?? [],
      }
      // Events that arrived while this request was in flight are not in the answer.
      return { ...replayAuctionEvents(base, live.eventsAfter('teams', base.seq)), offset }
    },
    staleTime: 5_000,
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  useLiveTopic(
    'teams',
    {
      onEvent: (ev) => {
        let refetch = false
        qc.setQueryData<AuctionData>(key, (old) => {
          if (!old) return old
          const applied = applyAuctionEvent(old, ev)
          refetch = applied.refetch
          return { ...applied.view, offset: raiseOffset(old.offset, ev.ts, Date.now()) }
        })
        if (refetch) reload()
      },
      onResync: reload,
      onReconnect: reload,
    },
    { enabled: query.data !== undefined, since: query.data?.seq },
  )
  return query
}
