// One setting of the account: its name and value with the button that opens its form, the form's
// save and cancel, and what the last save said.
import type { ReactNode } from 'react'
import { SubmitButton } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'

type RowProps = {
  label: string
  value: ReactNode
  /** The value is not read out (a password's dots). */
  hideValue?: boolean
  /** Opens the setting's form. */
  action: ReactNode
  /** What the last save said. */
  done: string
}

export function SettingRow({ label, value, hideValue = false, action, done }: RowProps) {
  return (
    <div className="setting">
      <div className="setting-row">
        <span>
          <span className="setting-label">{label}</span>
          <span className="setting-value" aria-hidden={hideValue || undefined}>
            {value}
          </span>
        </span>
        {action}
      </div>
      <Message kind="success">{done}</Message>
    </div>
  )
}

/** A setting form's save (busy while its write runs) and cancel. */
export function SettingActions({ pending, saveLabel, onCancel }: { pending: boolean; saveLabel: string; onCancel: () => void }) {
  return (
    <div className="row-actions">
      <SubmitButton className="btn btn-primary btn-sm" pending={pending} pendingLabel="Saving…">
        {saveLabel}
      </SubmitButton>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
    </div>
  )
}
