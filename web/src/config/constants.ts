// The site's constants (docs/site.md, "Constants"), in one place so tests and components agree.
export const OTP_LENGTH = 6
export const POST_VERIFY_LOGIN_DELAY_MS = 2000
export const OTP_POPUP_MS = 5000
/** The server sends at most one code a minute (resend-otp answers 429 within 60 s: docs/api.md, "Accounts"). */
export const OTP_RESEND_COOLDOWN_S = 60
export const REGISTRATION_COUNTDOWN_S = 6
export const SCROLL_THRESHOLD_PX = 100
export const REVEAL_RATIO = 1.1
export const MODAL_TAB_SWITCH_MS = 200
export const CARD_OBSERVER = { threshold: 0.1, rootMargin: '50px', staggerS: 0.03 } as const
export const DEFAULT_TOURNAMENT = 'PPL7'
export const SLIDE_COUNT = 10
