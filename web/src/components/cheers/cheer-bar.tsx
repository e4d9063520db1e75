// The cheer bar: five reactions a spectator taps (sent over the open websocket, else POST
// /api/cheers) and the bursts of everyone's cheers, one window at a time, over the page. The
// overlays show the bursts alone (`buttons={false}`).
import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react'
import { api } from '@/lib/api-client'
import { useLiveClient, useLiveTopic, type CheersFrame } from '@/lib/live'
import { CHEER_KINDS, particlesFor, scaleFor, shortCount } from './cheers'
import './cheers.css'

type Particle = { id: number; emoji: string; x: number; delay: number; scale: number }

/** How long a particle floats (its CSS animation), then it is removed. */
const FLOAT_MS = 1_600
/** How long the counts on the buttons add up the windows before they fade. */
const TALLY_MS = 3_000

let nextId = 1

export function CheerBar({ topic, buttons = true, label = 'Cheer' }: { topic: string; buttons?: boolean; label?: string }) {
  const client = useLiveClient()
  const [particles, setParticles] = useState<Particle[]>([])
  const [tally, setTally] = useState<Record<string, number>>({})
  const [note, setNote] = useState<string | null>(null)
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>())

  const later = useCallback((fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.current.delete(t)
      fn()
    }, ms)
    timers.current.add(t)
  }, [])
  useEffect(() => {
    const all = timers.current
    return () => all.forEach(clearTimeout)
  }, [])

  const onCheers = useCallback(
    (frame: CheersFrame) => {
      const born: Particle[] = []
      for (const { kind, emoji } of CHEER_KINDS) {
        const n = frame.counts[kind] ?? 0
        const scale = scaleFor(n)
        for (let i = 0; i < particlesFor(n); i++) {
          born.push({ id: nextId++, emoji, x: Math.random() * 100, delay: Math.random() * frame.window_ms, scale })
        }
      }
      if (!born.length) return
      const ids = new Set(born.map((p) => p.id))
      setParticles((ps) => [...ps, ...born].slice(-80))
      later(() => setParticles((ps) => ps.filter((p) => !ids.has(p.id))), FLOAT_MS + frame.window_ms)
      setTally((t) => {
        const next = { ...t }
        for (const [k, n] of Object.entries(frame.counts)) next[k] = (next[k] ?? 0) + n
        return next
      })
      later(
        () =>
          setTally((t) => {
            const next = { ...t }
            for (const [k, n] of Object.entries(frame.counts)) next[k] = Math.max(0, (next[k] ?? 0) - n)
            return next
          }),
        TALLY_MS,
      )
    },
    [later],
  )
  useLiveTopic(topic, { onCheers })

  const cheer = (kind: string) => {
    if (client.cheer(topic, kind)) return
    api.post('/cheers', { topic, kind }).catch((err: unknown) => {
      const status = (err as { status?: number }).status
      setNote(status === 429 ? 'Easy! Too many cheers: try again in a few seconds.' : 'Your cheer did not go through.')
      later(() => setNote(null), 3_000)
    })
  }

  return (
    <div className={`cheer-bar ${buttons ? '' : 'is-overlay'}`} data-testid={`cheer-bar-${topic}`}>
      <div className="cheer-burst" aria-hidden="true">
        {particles.map((p) => (
          <span
            key={p.id}
            className="cheer-particle"
            style={{ left: `${p.x}%`, animationDelay: `${p.delay}ms`, '--cheer-scale': p.scale } as CSSProperties}
          >
            {p.emoji}
          </span>
        ))}
      </div>
      {buttons ? (
        <div className="cheer-buttons" role="group" aria-label={label}>
          {CHEER_KINDS.map(({ kind, emoji, label: name }) => (
            <button key={kind} type="button" className="cheer-button" aria-label={name} title={name} onClick={() => cheer(kind)}>
              <span aria-hidden="true">{emoji}</span>
              <span className="cheer-label" aria-hidden="true">
                {name}
              </span>
              {tally[kind] ? <span className="cheer-count" data-testid={`cheer-count-${kind}`}>{shortCount(tally[kind])}</span> : null}
            </button>
          ))}
        </div>
      ) : null}
      {note ? (
        <p className="cheer-note" role="status">
          {note}
        </p>
      ) : null}
    </div>
  )
}
