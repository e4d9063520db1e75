import { useMemo } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api, apiUrl } from '@/lib/api-client'
import { frameBatcher } from '@/lib/frame-batch'
import { useLiveClient, useLiveTopic, type LiveEvent } from '@/lib/live'
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
  const path = `${tournamentPath(tournament)}/auction`
  // The view as read at sentAt and received now: events that arrived meanwhile are not in it.
  const toData = (view: AuctionView, sentAt: number): AuctionData => {
    const offset = clockOffset(view.now, sentAt, Date.now())
    const base: AuctionView = {
      ...view,
      sold: view.sold ?? [],
      unsold: view.unsold ?? [],
      pool: view.pool ?? [],
      teams: view.teams ?? [],
    }
    return { ...replayAuctionEvents(base, live.eventsAfter('teams', base.seq)), offset }
  }
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<AuctionData> => {
      const sentAt = Date.now()
      return toData(await api.get<AuctionView>(path, signal), sentAt)
    },
    staleTime: 5_000,
  })
  const reload = () => void qc.invalidateQueries({ queryKey: key })
  // A burst of bids is applied to the cache in one write per animation frame (one commit).
  const apply = useMemo(
    () =>
      frameBatcher<LiveEvent>((events) => {
      let refetch = false
      qc.setQueryData<AuctionData>(auctionKey(tournament), (old) => {
        if (!old) return old
        let view: AuctionData = old
        for (const ev of events) {
          const applied = applyAuctionEvent(view, ev)
          refetch ||= applied.refetch
          view = { ...applied.view, offset: raiseOffset(view.offset, ev.ts, Date.now()) }
        }
        return view
      })
      if (refetch) void qc.invalidateQueries({ queryKey: auctionKey(tournament) })
    }),
    [qc, tournament],
  )
  useLiveTopic(
    'teams',
    {
      onEvent: apply,
      onResync: reload,
      onReconnect: reload,
      // After a mass resync the hub brings the view (read the moment it sends it).
      onPage: (view) => qc.setQueryData(key, toData(view as AuctionView, Date.now())),
    },
    { enabled: query.data !== undefined, since: query.data?.seq, page: apiUrl(path) },
  )
  return query
}
