import { api } from '@/lib/api-client'
import { useStandaloneMutation } from '@/lib/mutations'
import type { ExtractedStats } from '../types'

/** Reads a stats screenshot; signed in, the server also keeps what it read unless a figure is doubtful (`saved`). */
export function extractStats(file: File, signal?: AbortSignal) {
  const form = new FormData()
  form.append('screenshot', file)
  return api.upload<{ success: boolean; stats: ExtractedStats | null; saved?: boolean }>('/stats/extract', form, signal)
}

/** The caller reads the saved stats again when it needs them (the reading may not have been kept). */
export const useExtractStats = () => useStandaloneMutation({ mutationFn: (file: File) => extractStats(file) })
