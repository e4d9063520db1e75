import { useScrolled } from '@/lib/use-scrolled'

/** Appears after 100px of scroll (docs/site.md, "Pages") and returns to #top. */
export function BackToTop() {
  const scrolled = useScrolled()
  if (!scrolled) return null
  return (
    <a
      href="#top"
      className="back-to-top"
      aria-label="Back to top"
      onClick={(e) => {
        e.preventDefault()
        const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
        window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' })
        document.querySelector<HTMLElement>('.skip-link')?.focus({ preventScroll: true })
      }}
    >
      <span aria-hidden="true">↑</span>
    </a>
  )
}
