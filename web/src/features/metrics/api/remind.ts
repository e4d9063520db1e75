import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { ReminderResult, StepName } from '../types'
import { metricsKey } from './dashboard'

/** Reminds the players stopped before a step (each at most once a week); the dashboard is read again. */
export const remind = (tournament: string, step: StepName, userIds: number[]) =>
  api.post<ReminderResult>('/admin/metrics/reminders', { tournament, step, user_ids: userIds })

export function useRemind(tournament: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ step, userIds }: { step: StepName; userIds: number[] }) => remind(tournament, step, userIds),
    onSuccess: () => void qc.invalidateQueries({ queryKey: metricsKey(tournament) }),
  })
}
