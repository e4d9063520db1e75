// Links between the app's flows and pages that carry more than a path.

/** Navigation state that asks the Reg Player tab to scroll to the signed-in player's card. */
export type TournamentLinkState = { focusOwnCard?: boolean }

/** Where a registered player goes: the Reg Player tab, with their own card in view. */
export const OWN_CARD_LINK = { to: '/tournament?tab=reg', state: { focusOwnCard: true } satisfies TournamentLinkState }

export function wantsOwnCard(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as TournamentLinkState).focusOwnCard === true
}
