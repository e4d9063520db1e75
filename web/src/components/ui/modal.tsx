// An accessible dialog: portal, focus moved in and trapped, Escape and backdrop close it,
// focus returns to the opener, and a body class (default `modal-open`) while it is open.
import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

type ModalProps = {
  open: boolean
  onClose: () => void
  title: ReactNode
  /** Visually hide the title (it still names the dialog). */
  hideTitle?: boolean
  children: ReactNode
  className?: string
  bodyClass?: string
  closeLabel?: string
}

export function Modal({
  open,
  onClose,
  title,
  hideTitle,
  children,
  className,
  bodyClass = 'modal-open',
  closeLabel = 'Close',
}: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const closeOnEscape = useEffectEvent(() => onClose())

  useEffect(() => {
    if (!open) return
    const opener = document.activeElement as HTMLElement | null
    document.body.classList.add(bodyClass)
    const dialog = dialogRef.current
    // Focus the first field of the content (not the close button), unless one asks for it.
    const first =
      dialog?.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog?.querySelector('.modal-body')?.querySelector<HTMLElement>(FOCUSABLE) ??
      dialog?.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? dialog)?.focus()

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation()
        closeOnEscape()
        return
      }
      if (e.key !== 'Tab' || !dialog) return
      const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden], [inert]'))
      if (items.length === 0) {
        e.preventDefault()
        dialog.focus()
        return
      }
      const firstEl = items[0]
      const lastEl = items[items.length - 1]
      const active = document.activeElement
      if (e.shiftKey && (active === firstEl || !dialog.contains(active))) {
        e.preventDefault()
        lastEl.focus()
      } else if (!e.shiftKey && (active === lastEl || !dialog.contains(active))) {
        e.preventDefault()
        firstEl.focus()
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => {
      document.removeEventListener('keydown', onKey, true)
      document.body.classList.remove(bodyClass)
      // The opener is where the visitor left it: no scrolling to it (which lays the page out first).
      if (opener && document.contains(opener)) opener.focus({ preventScroll: true })
    }
  }, [open, bodyClass])

  if (!open) return null
  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose()
      }}
    >
      <div
        ref={dialogRef}
        className={`modal ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="modal-head">
          <h2 id={titleId} className={hideTitle ? 'sr-only' : 'modal-title'}>
            {title}
          </h2>
          <button type="button" className="icon-btn modal-close" onClick={onClose} aria-label={closeLabel}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="modal-body">{children}</div>
      </div>
    </div>,
    document.body,
  )
}
