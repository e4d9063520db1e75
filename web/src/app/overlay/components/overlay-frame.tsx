// The 1920x1080 stage every overlay draws on: a transparent page (html.overlay; the server marks
// the document so even the first paint is clear), no site chrome, scaled by ?scale=.
import { useEffect, useMemo, type ReactNode } from 'react'
import { useLocation } from '@/lib/router'
import { useTournamentName } from '@/config/app-config'
import { parseOverlayOptions, type OverlayOptions } from '../lib/options'
import '../overlay.css'

export const STAGE_WIDTH = 1920
export const STAGE_HEIGHT = 1080

/** The options of the page's query string, and the tournament they name (else the site's current one). */
export function useOverlayOptions(): OverlayOptions & { tournament: string } {
  const { search } = useLocation()
  const options = useMemo(() => parseOverlayOptions(search), [search])
  const current = useTournamentName()
  return { ...options, tournament: options.tournament ?? current }
}

export function OverlayFrame({ kind, options, children }: { kind: string; options: OverlayOptions; children: ReactNode }) {
  useEffect(() => {
    const root = document.documentElement
    root.classList.add('overlay')
    document.title = `Pitlane overlay · ${kind}`
  }, [kind])
  return (
    <div
      className={`overlay-stage overlay-${kind}`}
      data-theme={options.theme}
      data-testid="overlay-stage"
      style={{ width: STAGE_WIDTH, height: STAGE_HEIGHT, transform: options.scale === 1 ? undefined : `scale(${options.scale})` }}
    >
      {children}
    </div>
  )
}

