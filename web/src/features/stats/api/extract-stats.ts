import { api, ApiError } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'
import { READER_REFUSED, refusedAnswer } from '../lib/stats-model'
import type { ExtractedStats } from '../types'

type ExtractAnswer = { success: boolean; stats: ExtractedStats | null; saved?: boolean }

/** Reads a stats screenshot; signed in, the server also keeps what it read unless a figure is doubtful (`saved`).
 *  A screenshot the reader refused (422, "please enter your stats") answers with nothing read and the
 *  server's message, so that the player gets the form to type their stats in; every other failure is
 *  thrown as it came. */
export async function extractStats(file: File, signal?: AbortSignal): Promise<ExtractAnswer> {
  const form = new FormData()
  form.append('screenshot', file)
  try {
    return await api.upload<ExtractAnswer>('/stats/extract', form, signal)
  } catch (err) {
    if (err instanceof ApiError && err.status === 422 && err.serverMessage === READER_REFUSED) {
      return { success: false, stats: refusedAnswer(err.serverMessage), saved: false }
    }
    throw err
  }
}

/** The caller reads the saved stats again when it needs them (the reading may not have been kept). */
export const useExtractStats = () => useStandaloneMutation({ mutationFn: (file: File) => extractStats(file) })
