// A button whose action needs a second, explicit yes: the first press asks the question in place
// (focus on the safe answer), the second runs the action. Errors belong to the caller: a rejected
// onConfirm (a write's mutateAsync) is the caller's to show, and only closes the question here.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'

type Props = {
  /** The first button. */
  label: string
  question: string
  detail?: ReactNode
  confirmLabel: string
  cancelLabel: string
  busyLabel: string
  onConfirm: () => Promise<unknown>
  disabled?: boolean
  /** Extra classes of the first button (its look where it stands). */
  className?: string
  /** Fields the answer takes (a reason, a replacement), between the question and its buttons. */
  children?: ReactNode
}

export function ConfirmAction({
  label,
  question,
  detail,
  confirmLabel,
  cancelLabel,
  busyLabel,
  onConfirm,
  disabled = false,
  className = 'btn btn-danger',
  children,
}: Props) {
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const returnFocus = useRef(false)
  const titleId = useId()

  useEffect(() => {
    if (asking) cancelRef.current?.focus()
    else if (returnFocus.current) {
      returnFocus.current = false
      triggerRef.current?.focus()
    }
  }, [asking])

  async function confirm() {
    setBusy(true)
    try {
      await onConfirm()
    } catch {
      // shown by the caller (its write's error)
    } finally {
      setBusy(false)
      setAsking(false)
    }
  }

  if (!asking) {
    return (
      <button ref={triggerRef} type="button" className={className} onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    )
  }
  return (
    <div className="confirm-box" role="group" aria-labelledby={titleId}>
      <p id={titleId} className="confirm-question">
        {question}
      </p>
      {detail ? <div className="confirm-detail">{detail}</div> : null}
      {children}
      <div className="row-actions">
        <button type="button" className="btn btn-danger" onClick={confirm} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </button>
        <button
          ref={cancelRef}
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            returnFocus.current = true
            setAsking(false)
          }}
          disabled={busy}
        >
          {cancelLabel}
        </button>
      </div>
    </div>
  )
}
