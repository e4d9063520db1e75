// The season the server painted the page with (internal/api/pagedocs.go, seasonData): its name and
// summary, written beside #root so the app's first render says what the first paint said (the home
// page's hero, the current season's name) before its own reads have come back.

export type FirstPaintSeason = {
  tournament: string
  info: { name: string; status: string; registration_open: boolean } & Record<string, unknown>
}

let read = false
let season: FirstPaintSeason | null = null

/** The season the document carries, or null (no server paint: a test, a page the server sent as built). */
export function firstPaintSeason(): FirstPaintSeason | null {
  if (read) return season
  read = true
  try {
    const text = document.getElementById('season-data')?.textContent
    const data = text ? (JSON.parse(text) as FirstPaintSeason) : null
    season = data && typeof data.tournament === 'string' && data.info?.name === data.tournament ? data : null
  } catch {
    season = null
  }
  return season
}

/** Forgets what was read (tests write the document's data themselves). */
export function resetFirstPaintSeason() {
  read = false
  season = null
}
