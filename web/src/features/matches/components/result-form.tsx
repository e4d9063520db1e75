import { useId, useState, type FormEvent } from 'react'
import { ErrorMessage, SubmitButton } from '@/components/ui/form'
import { useReportResult } from '../api/report-result'
import { useResolveResult } from '../api/resolve-result'
import { buildResult, initialRows, memberNames, type ReportRow } from '../lib/match-model'
import type { Match } from '../types'

/** The number cells of a player's row: field, column label, words for a screen reader. */
const CELLS = [
  ['kills', 'Kills', 'Kills'],
  ['deaths', 'Deaths', 'Deaths'],
  ['placement', 'Place', 'Placement'],
] as const

type Props = {
  match: Match
  /** report: a side's captain, with the end-of-match screenshot; resolve: an organiser's ruling. */
  mode: 'report' | 'resolve'
  onDone?: (m: Match) => void
}

/** The winner and each player's kills, deaths and placement. */
export function ResultForm({ match, mode, onDone }: Props) {
  const id = useId()
  const [winner, setWinner] = useState(match.report?.winner ?? match.winner ?? '')
  const [rows, setRows] = useState<ReportRow[]>(() => initialRows(match))
  const [file, setFile] = useState<File | null>(null)
  const [invalid, setInvalid] = useState('')
  const report = useReportResult(match.id)
  const resolve = useResolveResult(match.id)
  const write = mode === 'report' ? report : resolve
  const names = memberNames(match)

  const set = (i: number, patch: Partial<ReportRow>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)))

  function submit(e: FormEvent) {
    e.preventDefault()
    setInvalid('')
    write.reset()
    const built = buildResult(winner, rows)
    if ('error' in built) {
      setInvalid(built.error)
      return
    }
    if (mode === 'report' && !file) {
      setInvalid('Attach the end-of-match screenshot.')
      return
    }
    const done = { onSuccess: (m: Match) => onDone?.(m) }
    if (mode === 'report') report.mutate({ result: built.result, file: file! }, done)
    else resolve.mutate(built.result, done)
  }

  const sides = [match.team1, match.team2].filter((t) => !!t)
  return (
    <form className="form result-form" onSubmit={submit} aria-label={mode === 'report' ? 'Report the result' : 'Rule on the result'}>
      <fieldset className="winner-pick">
        <legend>Winner</legend>
        {sides.map((t) => (
          <label key={t.id} className="radio-chip">
            <input type="radio" name={`${id}-winner`} value={t.id} checked={winner === t.id} onChange={() => setWinner(t.id)} />
            Team {t.id}
          </label>
        ))}
      </fieldset>
      {sides.map((t) => (
        <fieldset key={t.id} className="result-side">
          <legend>Team {t.id}</legend>
          {rows.some((r) => r.team === t.id) ? null : <p className="muted">No players on this side.</p>}
          <div className="result-rows">
            {rows.map((r, i) =>
              r.team !== t.id ? null : (
                <div key={r.userId} className={`result-row ${r.played ? 'is-played' : ''}`} data-user={r.userId}>
                  <label className="result-played">
                    <input type="checkbox" checked={r.played} onChange={(e) => set(i, { played: e.target.checked })} />
                    <span>{names.get(r.userId) ?? `Player ${r.userId}`}</span>
                  </label>
                  {CELLS.map(([field, label, words]) => (
                    <label key={field}>
                      <span>{label}</span>
                      <input
                        inputMode="numeric"
                        aria-label={`${words} of ${names.get(r.userId) ?? r.userId}`}
                        value={r[field]}
                        disabled={!r.played}
                        onChange={(e) => set(i, { [field]: e.target.value })}
                      />
                    </label>
                  ))}
                </div>
              ),
            )}
          </div>
        </fieldset>
      ))}
      {mode === 'report' ? (
        <div className="field">
          <label htmlFor={`${id}-proof`}>End-of-match screenshot</label>
          <input
            id={`${id}-proof`}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <p className="field-hint">The other captain sees it with your report and confirms or disputes it.</p>
        </div>
      ) : null}
      <ErrorMessage error={invalid || write.error} fallback={mode === 'report' ? 'The report could not be sent.' : 'The ruling could not be saved.'} />
      <div className="row-actions">
        <SubmitButton pending={write.isPending} pendingLabel="Sending…">
          {mode === 'report' ? 'Report the result' : match.status === 'completed' ? 'Correct the result' : 'Rule: save this result'}
        </SubmitButton>
      </div>
    </form>
  )
}
