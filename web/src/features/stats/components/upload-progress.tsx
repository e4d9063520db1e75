import { Spinner } from '@/components/ui/spinner'
import { STAGES } from '../lib/stats-model'
import type { ProgressStage } from '../types'

/** Live progress of the extraction (topic `user`, event stats.progress); a spinner without it. */
export function UploadProgress({ stage, live }: { stage: ProgressStage | null; live: boolean }) {
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
      {stage === 'failed' ? <li className="failed">The reader could not finish</li> : null}
    </ol>
  )
}
