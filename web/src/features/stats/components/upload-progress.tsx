import { useState } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { useLiveTopic } from '@/lib/live'
import { STAGES } from '../lib/stats-model'
import type { ProgressStage } from '../types'

/** Live progress of the extraction (topic `user`, event stats.progress); a spinner without it.
 *  A read that failed ends with the server's message (the one its answer carries). */
export function UploadProgress({ stage, live }: { stage: ProgressStage | null; live: boolean }) {
  const [message, setMessage] = useState('')
  useLiveTopic(
    'user',
    {
      onEvent: (ev) => {
        const data = ev.data as { stage?: ProgressStage; message?: string } | null
        if (ev.event === 'stats.progress' && data?.stage === 'failed') setMessage(data.message ?? '')
      },
    },
    { enabled: live },
  )
  if (!live || !stage) {
    return (
      <div className="upload-progress" aria-live="polite">
        <Spinner label="Processing" /> <span>Reading your screenshot…</span>
      </div>
    )
  }
  const at = stage === 'failed' ? -1 : STAGES.findIndex((s) => s.key === stage)
  return (
    <ol className="upload-progress stages" aria-live="polite" aria-label="Upload progress">
      {STAGES.map((s, i) => (
        <li key={s.key} className={i < at || stage === 'done' ? 'done' : i === at ? 'current' : 'todo'} aria-current={i === at ? 'step' : undefined}>
          {s.label}
        </li>
      ))}
      {stage === 'failed' ? <li className="failed">{message || 'The reader could not finish'}</li> : null}
    </ol>
  )
}
