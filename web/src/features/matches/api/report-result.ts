import { api } from '@/lib/api-client'
import type { ResultInput } from '../types'
import { matchPath, postMatch, useMatchWrite } from './match-write'

/** Uploads the end-of-match screenshot; the report names it by the id this answers. */
export function uploadProof(id: number, file: File) {
  const form = new FormData()
  form.append('screenshot', file)
  return api.upload<{ screenshotId: string; url: string }>(matchPath(id, 'proof'), form)
}

export const reportResult = (id: number, result: ResultInput, screenshotId: string) =>
  postMatch(matchPath(id, 'report'), { ...result, screenshotId })

/** A side's captain reports the result: the screenshot first, then the report that names it. */
export const useReportResult = (id: number) =>
  useMatchWrite(id, async ({ result, file }: { result: ResultInput; file: File }) => reportResult(id, result, (await uploadProof(id, file)).screenshotId))
