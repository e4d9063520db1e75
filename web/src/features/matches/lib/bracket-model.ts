// The bracket's drawing as data: the sections a format is drawn in (a double elimination's winners and losers
// brackets and grand final, a Swiss stage's rounds and its top cut), each round's heading within its section,
// the rounds not made yet, the format in words, and the organisers' seed order. Pure: the server decides.
import type { Bracket, FormatOptions, Round, TableRow } from '../types'
import { formatLabel, roundTitle } from './match-model'

export type SectionKey = 'rounds' | 'winners' | 'losers' | 'grand_final' | 'swiss' | 'playoffs'

/** A round as drawn: one made (with its matches), or one still to be made, said in `pending`. */
export type ShownRound = { key: string; title: string; round: Round | null; pending?: string }

export type Section = { key: SectionKey; title: string; note: string; rounds: ShownRound[] }

const made = (r: Round, title: string): ShownRound => ({ key: `${r.stage}-${r.number}`, title, round: r })
const pending = (key: string, title: string, why: string): ShownRound => ({ key, title, round: null, pending: why })

/** Titles within a bracket: "Round 1", "Round 2", and its last round's name. */
function titled(rounds: Round[], last: string): ShownRound[] {
  return rounds.map((r, i) => made(r, i === rounds.length - 1 && rounds.length > 1 ? last : `Round ${r.number}`))
}

function doubleElimination(b: Bracket): Section[] {
  const part = (key: string) => b.rounds.filter((r) => r.bracket === key || r.stage === key)
  const reset = !!b.options?.grand_final_reset
  const finals = part('grand_final')
  const shown = finals.map((r) => made(r, r.number > 1 ? 'Reset' : 'Final'))
  const first = finals[0]?.matches[0]
  // The reset is drawn until the first grand final is won by the winners' champion (then it is not played).
  if (reset && finals.length === 1 && !(first?.winner && first.winner === first.team1?.id)) {
    shown.push(pending('grand_final-2', 'Reset', 'Played only if the losers’ champion wins the grand final.'))
  }
  return [
    { key: 'winners', title: 'Winners bracket', note: 'A loss drops a team to the losers bracket.', rounds: titled(part('winners'), 'Winners final') },
    { key: 'losers', title: 'Losers bracket', note: 'A second loss is out.', rounds: titled(part('losers'), 'Losers final') },
    {
      key: 'grand_final',
      title: 'Grand final',
      note: reset
        ? 'The winners’ champion needs one win, the losers’ champion two.'
        : 'One match for the title: the winners’ champion against the losers’ champion.',
      rounds: shown,
    },
  ]
}

function swiss(b: Bracket): Section[] {
  const rounds = b.rounds.filter((r) => r.bracket === 'swiss' || r.stage === 'swiss')
  const playoffs = b.rounds.filter((r) => !rounds.includes(r))
  const total = Math.max(b.options?.rounds ?? 0, rounds.length)
  const shown = rounds.map((r) => made(r, `Round ${r.number}`))
  for (let n = rounds.length + 1; n <= total; n++) {
    shown.push(pending(`swiss-${n}`, `Round ${n}`, `Paired by score when round ${n - 1} ends.`))
  }
  const sections: Section[] = [
    { key: 'swiss', title: 'Swiss rounds', note: 'Teams on the same score meet; nobody meets a team twice while it can be helped.', rounds: shown },
  ]
  const cut = b.options?.top_cut ?? 0
  if (cut > 0) {
    sections.push({
      key: 'playoffs',
      title: 'Play-offs',
      note: `The top ${cut} of the standings after round ${total}, seeded by their place.`,
      rounds: playoffs.length
        ? playoffs.map((r) => made(r, roundTitle(r)))
        : [pending('playoffs', `Top ${cut}`, `Drawn from the standings when round ${total} ends.`)],
    })
  }
  return sections
}

/** The sections the bracket is drawn in, in order; a one-bracket format is one untitled section. */
export function bracketSections(b: Bracket): Section[] {
  switch (b.format) {
    case 'double_elimination':
      return doubleElimination(b)
    case 'swiss':
      return swiss(b)
  }
  return [{ key: 'rounds', title: '', note: '', rounds: b.rounds.map((r) => made(r, roundTitle(r))) }]
}

/** "Swiss · 3 rounds · top 4 cut", "Double elimination · grand final reset", else the format's name. */
export function formatSummary(format: string | undefined, options?: FormatOptions | null): string {
  const parts = [formatLabel(format)]
  if (format === 'swiss' && options?.rounds) parts.push(`${options.rounds} rounds`)
  if (format === 'swiss' && options?.top_cut) parts.push(`top ${options.top_cut} cut`)
  if (format === 'double_elimination') parts.push(options?.grand_final_reset ? 'grand final reset' : 'no reset')
  return parts.filter(Boolean).join(' · ')
}

/** A Swiss team's record: "2–1", with its byes ("2–0, 1 bye"). */
export function swissRecord(row: Pick<TableRow, 'won' | 'lost' | 'byes'>): string {
  const byes = row.byes ?? 0
  return `${row.won}–${row.lost}${byes ? `, ${byes} ${byes === 1 ? 'bye' : 'byes'}` : ''}`
}

/** The Swiss stage's default rounds for n teams (the server's): log2 n rounded up, at most n − 1. */
export function defaultSwissRounds(n: number): number {
  let r = 0
  while (2 ** r < n) r++
  return Math.max(1, Math.min(r, n - 1))
}

/** The top cuts n teams allow (0: none). */
export function topCutChoices(n: number): number[] {
  return [0, 2, 4, 8, 16].filter((c) => c <= n)
}

/** The order with the team at `from` moved to `to` (clamped to the list). */
export function moveSeed(order: string[], from: number, to: number): string[] {
  const next = [...order]
  const at = Math.max(0, Math.min(order.length - 1, to))
  if (from < 0 || from >= order.length || at === from) return next
  const [team] = next.splice(from, 1)
  next.splice(at, 0, team)
  return next
}

/** How the server says the organisers ordered the seeds (else they are by strength). */
export const BY_ORGANISERS = "the organisers' order"

/** Where each side of a match not known yet comes from, by match id and side: "Winner of match 5", "Loser of match 3". */
export function feeders(b: Bracket): Map<number, Record<number, string>> {
  const out = new Map<number, Record<number, string>>()
  const say = (to: number | null | undefined, side: number | undefined, what: string) => {
    if (!to || !side) return
    out.set(to, { ...out.get(to), [side]: what })
  }
  for (const r of b.rounds) {
    for (const m of r.matches) {
      say(m.next_match, m.next_side, `Winner of match ${m.id}`)
      say(m.loser_match, m.loser_side, `Loser of match ${m.id}`)
    }
  }
  return out
}
