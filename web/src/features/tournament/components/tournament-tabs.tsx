import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { slideDirection, TOURNAMENT_TABS, type TabKey } from '../lib/tabs'

type Props = {
  active: TabKey
  onChange: (key: TabKey) => void
  renderPanel: (key: TabKey) => ReactNode
}

/** The tabbed block: pressed buttons, and panels that slide in from the side of travel. */
export function TournamentTabs({ active, onChange, renderPanel }: Props) {
  const [direction, setDirection] = useState<'right' | 'left'>('right')
  const [pressed, setPressed] = useState<TabKey | null>(null)
  const refs = useRef<Record<string, HTMLButtonElement | null>>({})

  function select(key: TabKey) {
    if (key === active) return
    setDirection(slideDirection(active, key))
    onChange(key)
  }

  function onKey(e: KeyboardEvent, i: number) {
    const n = TOURNAMENT_TABS.length
    let j = -1
    if (e.key === 'ArrowRight') j = (i + 1) % n
    else if (e.key === 'ArrowLeft') j = (i - 1 + n) % n
    else if (e.key === 'Home') j = 0
    else if (e.key === 'End') j = n - 1
    if (j < 0) return
    e.preventDefault()
    const key = TOURNAMENT_TABS[j].key
    select(key)
    refs.current[key]?.focus()
  }

  return (
    <div className="tabs">
      <div className="tab-list" role="tablist" aria-label="Tournament">
        {TOURNAMENT_TABS.map((t, i) => (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[t.key] = el
            }}
            type="button"
            role="tab"
            id={`tab-${t.key}`}
            aria-selected={active === t.key}
            aria-controls={`panel-${t.key}`}
            tabIndex={active === t.key ? 0 : -1}
            className={`tab-btn ${active === t.key ? 'active' : ''} ${pressed === t.key ? 'is-pressed' : ''}`}
            data-pressed={pressed === t.key ? 'true' : undefined}
            onPointerDown={() => setPressed(t.key)}
            onPointerUp={() => setPressed(null)}
            onPointerLeave={() => setPressed(null)}
            onClick={() => select(t.key)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        key={active}
        role="tabpanel"
        id={`panel-${active}`}
        aria-labelledby={`tab-${active}`}
        className={`tab-panel slide-from-${direction}`}
        data-direction={direction}
        tabIndex={0}
      >
        {renderPanel(active)}
      </div>
    </div>
  )
}
