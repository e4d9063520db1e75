// The pieces every form is made of: a labelled field, the button of a write (its busy label while
// the write runs), and the failure in the server's own words (docs/site.md, "Forms and their checks").
import { useId, useState, type ButtonHTMLAttributes, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react'
import { errorMessage, errorProblems } from '@/lib/api-client'
import { Message } from './popup'

/**
 * A failed write or check: a string is shown as it is, an API error as the server's message (else
 * `fallback`) with the problems it listed under it; nothing at all while there is none.
 */
export function ErrorMessage({ error, fallback }: { error: unknown; fallback?: string }) {
  const text = !error ? '' : typeof error === 'string' ? error : errorMessage(error, fallback)
  const problems = errorProblems(error)
  if (text && problems.length > 0) {
    return (
      <div className="msg msg-error" role="alert">
        <p>{text}</p>
        <ProblemList problems={problems} />
      </div>
    )
  }
  return <Message kind="error">{text}</Message>
}

/** The things in the way of an action, one a line. */
export function ProblemList({ problems }: { problems: string[] }) {
  return (
    <ul className="problem-list">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  )
}

type FieldProps = {
  /** The control's id: the label points at it, and the hint is `${id}-hint`. */
  id: string
  label: ReactNode
  hint?: ReactNode
  className?: string
  children: ReactNode
}

/** A label over its control (an input, a select), with a hint under it. */
export function Field({ id, label, hint, className = '', children }: FieldProps) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id?: string
  label: ReactNode
  hint?: ReactNode
  /** Classes of the field around the input (its place in a row). */
  fieldClassName?: string
}

/** A Field around a text-like input; every input attribute passes through. */
export function TextField({ id, label, hint, fieldClassName, ...input }: TextFieldProps) {
  const own = useId()
  const inputId = id ?? own
  return (
    <Field id={inputId} label={label} hint={hint} className={fieldClassName}>
      <input id={inputId} aria-describedby={hint ? `${inputId}-hint` : undefined} {...input} />
    </Field>
  )
}

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  /** The write runs: the button is disabled and says `pendingLabel` (when given). */
  pending?: boolean
  pendingLabel?: ReactNode
}

function WriteButton({ type, pending = false, pendingLabel, disabled, className = 'btn btn-primary', children, ...rest }: ButtonProps & { type: 'submit' | 'button' }) {
  return (
    <button type={type} className={className} disabled={disabled || pending} {...rest}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  )
}

/** The submit button of a form whose write may be running. */
export function SubmitButton(props: ButtonProps) {
  return <WriteButton type="submit" {...props} />
}

/** A button that starts a write by itself (no form). */
export function ActionButton(props: ButtonProps) {
  return <WriteButton type="button" {...props} />
}

/** A form's values, one string each: `bind(key)` gives an input its value and onChange. */
export function useFormValues<K extends string>(empty: Record<K, string>) {
  const [values, setValues] = useState(empty)
  const bind = (key: K) => ({
    value: values[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [key]: e.target.value })),
  })
  return { values, bind, reset: () => setValues(empty) }
}

/**
 * A form whose values are checked in the browser before they are sent: `onSubmit(send)` is the
 * form's submit handler; it clears the last write's failure (`clear`), shows the first problem
 * `check` finds ('' for none) as `invalid`, and only with none calls `send` with the values.
 */
export function useCheckedForm<K extends string>(empty: Record<K, string>, check: (v: Record<K, string>) => string, clear: () => void) {
  const form = useFormValues(empty)
  const [invalid, setInvalid] = useState('')
  const onSubmit = (send: (v: Record<K, string>) => void) => (e: FormEvent) => {
    e.preventDefault()
    clear()
    const bad = check(form.values)
    setInvalid(bad)
    if (!bad) send(form.values)
  }
  const reset = () => (form.reset(), setInvalid(''))
  return { ...form, reset, invalid, onSubmit }
}

type TextFormProps = {
  id: string
  label: string
  maxLength: number
  submitLabel: string
  /** The submit button's classes. */
  className: string
  pending: boolean
  onSubmit: (text: string) => void
}

/** One line of text sent with one button (a reason, a dispute), as an inline form. */
export function TextForm({ id, label, maxLength, submitLabel, className, pending, onSubmit }: TextFormProps) {
  const [text, setText] = useState('')
  function submit(e: FormEvent) {
    e.preventDefault()
    onSubmit(text)
  }
  return (
    <form className="inline-form" onSubmit={submit}>
      <TextField id={id} label={label} value={text} maxLength={maxLength} onChange={(e) => setText(e.target.value)} />
      <SubmitButton className={className} pending={pending}>
        {submitLabel}
      </SubmitButton>
    </form>
  )
}
