// The league over REST, kept current by the `bracket` topic (match.updated, bracket.generated,
// bracket.reset, team.withdrawn, standings.updated): a change anywhere refetches what it touches, a
// resync refetches it all.
import { useMemo } from 'react'
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { api, apiUrl } from '@/lib/api-client'
import { frameBatcher } from '@/lib/frame-batch'
import { useLiveTopic, type LiveEvent } from '@/lib/live'
import { seasonName } from '@/lib/season-name'
import type { Bracket, LeagueTeam, Match, RedCapData, Season, Standings } from '../types'

const enc = encodeURIComponent

export const leagueKey = (tournament: string) => ['league', tournament] as const
export const bracketKey = (t: string) => [...leagueKey(t), 'bracket'] as const
export const standingsKey = (t: string) => [...leagueKey(t), 'standings'] as const
export const redCapKey = (t: string) => [...leagueKey(t), 'red-cap'] as const
export const teamMatchesKey = (t: string, team: string) => [...leagueKey(t), 'matches', team] as const
export const leagueTeamsKey = (t: string) => [...leagueKey(t), 'teams'] as const
export const matchKey = (id: number) => ['match', id] as const
export const seasonsKey = ['seasons'] as const

/** The tournament an event of the bracket topic is about ('' when it does not say). */
export function eventTournament(ev: LiveEvent): string {
  const d = ev.data as { tournament?: unknown } | null
  return d && typeof d.tournament === 'string' ? d.tournament : ''
}

/** Refetches `key` on every bracket event about `tournament` (or `when` says so), and on resync. */
function useBracketLive(
  tournament: string,
  key: QueryKey,
  enabled: boolean,
  since?: number,
  onEvent?: (ev: LiveEvent) => boolean,
  page?: string,
) {
  const qc = useQueryClient()
  // A burst of match events (a round's results entered together) refetches once, not once each.
  const keyText = JSON.stringify(key)
  const refetch = useMemo(() => frameBatcher<true>(() => void qc.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey })), [qc, keyText])
  useLiveTopic(
    'bracket',
    {
      onEvent: (ev) => {
        const about = eventTournament(ev)
        if (about && about !== tournament) return
        if (onEvent && onEvent(ev)) return
        refetch(true)
      },
      onResync: () => void qc.invalidateQueries({ queryKey: key }),
      // After a mass resync the hub brings the page read at `page` (when one is named).
      onPage: (p) => qc.setQueryData(key, p),
    },
    { enabled, since, page },
  )
}

export function useBracket(tournament: string) {
  const path = `/tournaments/${enc(tournament)}/bracket`
  const query = useQuery({
    queryKey: bracketKey(tournament),
    queryFn: ({ signal }) => api.get<Bracket>(path, signal),
    enabled: !!tournament,
  })
  useBracketLive(tournament, bracketKey(tournament), query.data !== undefined, query.data?.seq, (ev) => ev.event === 'standings.updated',
    apiUrl(path))
  return query
}

/**
 * A table the server also pushes whole: standings.updated carries it (under `field`), so it is
 * set from the event; a match changing alone does not move it (standings.updated follows).
 */
function usePushedTable<T extends { seq: number }>(tournament: string, key: QueryKey, path: string, field: string) {
  const qc = useQueryClient()
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<T>(`/tournaments/${enc(tournament)}/${path}`, signal),
    enabled: !!tournament,
  })
  useBracketLive(tournament, key, query.data !== undefined, query.data?.seq, (ev) => {
    const pushed = (ev.data as Record<string, T | undefined> | null)?.[field]
    if (ev.event === 'standings.updated' && pushed) {
      qc.setQueryData(key, pushed)
      return true
    }
    return ev.event === 'match.updated'
  })
  return query
}

export function useStandings(tournament: string) {
  return usePushedTable<Standings>(tournament, standingsKey(tournament), 'standings', 'standings')
}

export function useRedCap(tournament: string) {
  return usePushedTable<RedCapData>(tournament, redCapKey(tournament), 'red-cap', 'red_cap')
}

/** A tournament's matches, of one team when `team` is given, upcoming first. */
function useMatchList(tournament: string, team: string, enabled: boolean) {
  const key = teamMatchesKey(tournament, team || '*')
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api
        .get<{ matches: Match[] }>(`/tournaments/${enc(tournament)}/matches${team ? `?team=${enc(team)}` : ''}`, signal)
        .then((d) => d.matches ?? []),
    enabled: !!tournament && enabled,
  })
  useBracketLive(tournament, key, query.data !== undefined, undefined, (ev) => ev.event === 'standings.updated')
  return query
}

/** One team's matches (none asked while team is null). */
export const useTeamMatches = (tournament: string, team: string | null) => useMatchList(tournament, team ?? '', !!team)

/** Every match of a tournament (the organisers' queue). */
export const useAllMatches = (tournament: string) => useMatchList(tournament, '', true)

/** The eight teams with their captains' user ids (who captains what). */
export function useLeagueTeams(tournament: string) {
  const qc = useQueryClient()
  const key = leagueTeamsKey(tournament)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.get<{ teams: LeagueTeam[] }>(`/tournaments/${enc(tournament)}/teams`, signal).then((d) => d.teams ?? []),
    enabled: !!tournament,
  })
  useLiveTopic('teams', { onEvent: () => void qc.invalidateQueries({ queryKey: key }), onResync: () => void qc.invalidateQueries({ queryKey: key }) }, { enabled: query.data !== undefined })
  return query
}

export function useMatch(id: number) {
  const qc = useQueryClient()
  const key = matchKey(id)
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<{ match: Match }>(`/matches/${id}`, signal).then((d) => d.match),
    enabled: Number.isInteger(id) && id > 0,
  })
  useLiveTopic(
    'bracket',
    {
      onEvent: (ev) => {
        const m = (ev.data as { match?: Match } | null)?.match
        // The event's copy hides the room; a refetch brings it back for the two sides.
        if (ev.event === 'match.updated' && m?.id === id) void qc.invalidateQueries({ queryKey: key })
        if (ev.event === 'bracket.generated' || ev.event === 'bracket.reset') void qc.invalidateQueries({ queryKey: key })
      },
      onResync: () => void qc.invalidateQueries({ queryKey: key }),
    },
    { enabled: query.data !== undefined },
  )
  return query
}

/** Every season, newest first; a phase change anywhere refreshes the list. */
export function useSeasons(enabled = true) {
  const qc = useQueryClient()
  const query = useQuery({
    queryKey: seasonsKey,
    queryFn: ({ signal }) => api.get<{ tournaments: Season[] }>('/tournaments', signal).then((d) => d.tournaments ?? []),
    staleTime: 30_000,
    enabled,
  })
  useLiveTopic(
    'registrations',
    {
      onEvent: (ev) => {
        if (ev.event === 'tournament.status') void qc.invalidateQueries({ queryKey: seasonsKey })
      },
    },
    { enabled: query.data !== undefined },
  )
  return query
}

/** The name `tournament` goes by (its display name), from the list of seasons; its own name until that is read. */
export function useSeasonName(tournament: string): string {
  const seasons = useSeasons().data
  return seasonName(seasons?.find((s) => s.name === tournament), tournament)
}

export const adminTournamentPath = (tournament: string) => `/admin/tournaments/${enc(tournament)}`
