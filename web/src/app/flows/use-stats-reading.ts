// The upload step of the register flow: the chosen screenshot, the reader's live progress, and the
// reading with the card's category (the one the server keeps for a signed-in player, else a random one).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ApiError, errorMessage } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'
import { useLiveTopic } from '@/lib/live'
import { extractStats } from '@/features/stats/api/extract-stats'
import { getSavedStats, savedStatsKey } from '@/features/stats/api/stats'
import { cardFromSaved, randomCategory } from '@/features/stats/lib/stats-model'
import type { ExtractedStats, ProgressStage } from '@/features/stats/types'

/** What the reader made of a screenshot. `saved`: the server kept it (signed in, nothing doubtful). */
export type Reading = { stats: ExtractedStats; saved: boolean | undefined; category: number | null }

/** The screenshot had no stats the reader could find. */
class NothingRead extends Error {}

/** The failure of a reading as the flow shows it: its message, and whether a clearer screenshot helps. */
export function readingFailure(err: unknown, msg: { noData: string; extractFailed: string; extractAlert: string }) {
  if (err instanceof NothingRead) return { error: msg.noData, alert: msg.extractAlert }
  // A clearer screenshot helps when the image could not be read, not when the upload was refused
  // (type, size, rate limit) or the service is down.
  const unreadable = !(err instanceof ApiError) || err.status === 422 || err.status === 502
  return { error: errorMessage(err, msg.extractFailed), alert: unreadable ? msg.extractAlert : '' }
}

export function useStatsReading(user: User | null, tournament: string) {
  const qc = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  const [stage, setStage] = useState<ProgressStage | null>(null)
  useLiveTopic(
    'user',
    {
      onEvent: (ev) => {
        const st = (ev.data as { stage?: ProgressStage })?.stage
        if (ev.event === 'stats.progress' && st) setStage(st)
      },
    },
    { enabled: !!user },
  )
  const read = useMutation({
    mutationFn: async (f: File): Promise<Reading> => {
      const res = await extractStats(f)
      if (!res?.stats) throw new NothingRead()
      if (!user) return { stats: res.stats, saved: undefined, category: randomCategory() }
      // Read back the category the server stored (now, or with the player's earlier stats): a reupload keeps it.
      const category = await qc
        .fetchQuery({ queryKey: savedStatsKey, queryFn: async () => (await getSavedStats()).stats ?? null, staleTime: 0 })
        .then((fresh) => (fresh ? cardFromSaved(fresh, '').category : null))
        .catch(() => null)
      return { stats: res.stats, saved: res.saved, category }
    },
    onSuccess: (r) => {
      if (!user || r.saved === false) return
      void qc.invalidateQueries({ queryKey: userQueryKey })
      void qc.invalidateQueries({ queryKey: ['tournament', tournament] })
    },
  })
  return {
    file,
    setFile,
    stage,
    uploading: read.isPending,
    /** Reads the chosen screenshot; `done` has the reading, `failed` the error. */
    upload(done: (r: Reading) => void, failed: (err: unknown) => void) {
      if (!file) return
      setStage(null)
      read.mutate(file, {
        onSuccess: (r) => {
          setFile(null)
          done(r)
        },
        onError: failed,
      })
    },
  }
}
