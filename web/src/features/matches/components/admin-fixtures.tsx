// The organisers' fixtures: a format picked and the fixtures made, and once made, taken back (Reset) or made
// again in another format (Regenerate). A reset over results says how many it archives, and forces only then.
import { useState } from 'react'
import { Link } from '@/lib/router'
import { ConfirmAction } from '@/components/ui/confirm-action'
import { ActionButton, ErrorMessage } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { lastError } from '@/lib/mutations'
import { phaseName } from '@/lib/season-name'
import { useGenerateFixtures } from '../api/generate-fixtures'
import { useRegenerateFixtures, useResetFixtures } from '../api/reset-fixtures'
import { defaultSwissRounds, formatSummary, topCutChoices } from '../lib/bracket-model'
import { FORMATS } from '../lib/match-model'
import type { Bracket, FormatInput } from '../types'

const TOP_CUT_LABEL: Record<number, string> = {
  0: 'None: the leader is champion',
  2: 'Top 2: a final',
  4: 'Top 4: semi-finals and a final',
  8: 'Top 8: quarter-finals on',
}

/** A format and its options as the organiser picks them. */
type Pick = { format: string; rounds: string; cut: number; reset: boolean }

const firstPick: Pick = { format: 'league_then_playoffs', rounds: '', cut: 0, reset: true }

/** What the server takes for a pick. */
export function formatInput(p: Pick): FormatInput {
  const input: FormatInput = { format: p.format }
  if (p.format === 'swiss') {
    if (p.rounds.trim()) input.rounds = Number(p.rounds)
    input.top_cut = p.cut
  }
  if (p.format === 'double_elimination') input.grand_final_reset = p.reset
  return input
}

function FormatPicker({ pick, onPick, teams }: { pick: Pick; onPick: (p: Pick) => void; teams: number }) {
  const n = Math.max(teams, 2)
  const set = (change: Partial<Pick>) => onPick({ ...pick, ...change })
  return (
    <>
      <fieldset className="format-pick">
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <label key={f.key} className={`format-option ${pick.format === f.key ? 'is-on' : ''}`}>
            <input type="radio" name="format" value={f.key} checked={pick.format === f.key} onChange={() => set({ format: f.key })} />
            <span>
              <strong>{f.label}</strong>
              <small className="muted">{f.hint}</small>
            </span>
          </label>
        ))}
      </fieldset>
      {pick.format === 'swiss' ? (
        <div className="format-options" role="group" aria-label="Swiss options">
          <div className="field">
            <label htmlFor="swiss-rounds">Rounds</label>
            <input
              id="swiss-rounds"
              type="number"
              inputMode="numeric"
              min={1}
              max={n - 1}
              placeholder={`${defaultSwissRounds(n)} (the default)`}
              value={pick.rounds}
              onChange={(e) => set({ rounds: e.target.value })}
            />
            <small className="field-hint">
              1 to {n - 1} for {n} teams; no two teams meet twice while it can be helped.
            </small>
          </div>
          <div className="field">
            <label htmlFor="swiss-cut">Top cut</label>
            <select id="swiss-cut" value={pick.cut} onChange={(e) => set({ cut: Number(e.target.value) })}>
              {topCutChoices(n).map((c) => (
                <option key={c} value={c}>
                  {TOP_CUT_LABEL[c] ?? `Top ${c}`}
                </option>
              ))}
            </select>
            <small className="field-hint">After the last round, the top of the standings play a knockout for the title.</small>
          </div>
        </div>
      ) : null}
      {pick.format === 'double_elimination' ? (
        <label className="format-options check-line">
          <input type="checkbox" checked={pick.reset} onChange={(e) => set({ reset: e.target.checked })} />
          <span>
            <strong>Grand final reset</strong>
            <small className="muted">If the losers’ champion wins the grand final, it is played again: both sides go out only on a second loss.</small>
          </span>
        </label>
      ) : null}
    </>
  )
}

const made = (b: Bracket | undefined) =>
  b ? `Fixtures made: ${b.rounds.reduce((n, r) => n + r.matches.length, 0)} matches, ${formatSummary(b.format, b.options)}.` : ''

/**
 * The fixtures panel. `results` is how many matches have a result (reported, disputed, completed): a reset
 * archives them, so the confirmation says how many and the reset is forced only when there are some.
 */
export function Fixtures({ tournament, phase, hasFixtures, teams, results }: { tournament: string; phase: string; hasFixtures: boolean; teams: number; results: number }) {
  const [pick, setPick] = useState<Pick>(firstPick)
  const [again, setAgain] = useState(false)
  const fixtures = useGenerateFixtures(tournament)
  const reset = useResetFixtures(tournament)
  const regenerate = useRegenerateFixtures(tournament)
  const archived = results === 0 ? 'No match has a result yet: nothing is lost.' : results === 1 ? '1 match has a result: it is archived with the fixtures (organisers can read it back), and no longer counts in the tables.' : `${results} matches have results: they are archived with the fixtures (organisers can read them back), and no longer count in the tables.`
  // What the last write done says (a reset after fixtures made says the reset).
  const writes = [
    { at: fixtures.submittedAt, text: fixtures.isSuccess ? made(fixtures.data) : '' },
    { at: reset.submittedAt, text: reset.isSuccess && !hasFixtures ? 'The fixtures are reset.' : '' },
    { at: regenerate.submittedAt, text: regenerate.isSuccess ? made(regenerate.data) : '' },
  ]
  const done = writes.reduce((a, b) => (b.at > a.at ? b : a)).text
  return (
    <section className="match-panel" aria-label="Fixtures">
      <h2>Fixtures</h2>
      {hasFixtures ? (
        <>
          <p className="muted">
            The fixtures are made. <Link to={`/tournament?tab=bracket&season=${encodeURIComponent(tournament)}`}>See the bracket</Link>.
          </p>
          {phase === 'matches' ? (
            <div className="row-actions">
              <ConfirmAction
                label={results > 0 ? `Reset fixtures (${results} result${results === 1 ? '' : 's'})` : 'Reset fixtures'}
                question="Reset the fixtures? Every open bracket empties and the match threads are closed."
                detail={
                  <>
                    <p className={results > 0 ? 'confirm-warn' : undefined}>{archived}</p>
                    <p>The season stays in its matches phase: make the fixtures again, or move back to the auction.</p>
                  </>
                }
                confirmLabel={results > 0 ? `Reset and archive ${results === 1 ? 'the result' : `${results} results`}` : 'Yes, reset'}
                cancelLabel="Keep them"
                busyLabel="Resetting…"
                className="btn btn-danger-ghost btn-sm"
                onConfirm={() => reset.mutateAsync(results > 0)}
              />
              <button type="button" className="btn btn-ghost btn-sm" aria-expanded={again} onClick={() => setAgain((a) => !a)}>
                {again ? 'Close' : 'Regenerate…'}
              </button>
            </div>
          ) : null}
          {again && phase === 'matches' ? (
            <div className="regenerate">
              <FormatPicker pick={pick} onPick={setPick} teams={teams} />
              <ConfirmAction
                label="Reset and regenerate"
                question={`Reset the fixtures and make them again: ${FORMATS.find((f) => f.key === pick.format)?.label ?? pick.format}?`}
                detail={<p className={results > 0 ? 'confirm-warn' : undefined}>{archived}</p>}
                confirmLabel={results > 0 ? 'Archive and regenerate' : 'Yes, regenerate'}
                cancelLabel="Cancel"
                busyLabel="Regenerating…"
                className="btn btn-primary btn-sm"
                onConfirm={() => regenerate.mutateAsync({ force: results > 0, input: formatInput(pick) }).then(() => setAgain(false))}
              />
            </div>
          ) : null}
        </>
      ) : (
        <>
          {phase !== 'matches' ? <p className="msg msg-info">Fixtures are made in the matches phase; now: {phaseName(phase) || '…'}.</p> : null}
          <FormatPicker pick={pick} onPick={setPick} teams={teams} />
          <div className="row-actions">
            <ActionButton pending={fixtures.isPending} pendingLabel="Generating…" onClick={() => fixtures.mutate(formatInput(pick))}>
              Generate fixtures
            </ActionButton>
          </div>
        </>
      )}
      <ErrorMessage {...lastError([fixtures, 'The fixtures could not be made.'], [reset, 'The fixtures could not be reset.'], [regenerate, 'The fixtures could not be made again.'])} />
      <Message kind="success">{done}</Message>
    </section>
  )
}
