// Tournament page tabs (docs/site.md, "Pages"): keys, labels, and the slide direction rule.
export const TOURNAMENT_TABS = [
  { key: 'description', label: 'Description' },
  { key: 'category', label: 'Category' },
  { key: 'teams', label: 'Teams' },
  { key: 'reg', label: 'Reg Player' },
  { key: 'bracket', label: 'Bracket' },
  { key: 'points', label: 'Points Table' },
  { key: 'redcap', label: 'Red Cap' },
  { key: 'prizes', label: 'Prizes' },
] as const

export type TabKey = (typeof TOURNAMENT_TABS)[number]['key']

export function tabIndex(key: TabKey) {
  return TOURNAMENT_TABS.findIndex((t) => t.key === key)
}

/** Right if the new tab's index is greater than the old one's, else left. */
export function slideDirection(from: TabKey, to: TabKey): 'right' | 'left' {
  return tabIndex(to) > tabIndex(from) ? 'right' : 'left'
}

export function isTabKey(v: string | null | undefined): v is TabKey {
  return TOURNAMENT_TABS.some((t) => t.key === v)
}
