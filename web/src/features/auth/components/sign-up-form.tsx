import { ErrorMessage, SubmitButton, TextField, useCheckedForm } from '@/components/ui/form'
import { OTP_RESEND_COOLDOWN_S } from '@/config/constants'
import { useSignup } from '../api/signup'

type Props = {
  /** resendIn: the server's seconds until another code may be asked for. */
  onSignedUp: (email: string, password: string, message: string, resendIn: number) => void
}

/** All four fields are required; the password and its confirmation must match (docs/site.md, "Forms and their checks"). */
export function validateSignup(v: { discordUsername: string; email: string; password: string; confirmPassword: string }) {
  if (!v.discordUsername.trim() || !v.email.trim() || !v.password || !v.confirmPassword) return 'Please fill in all fields'
  if (v.password !== v.confirmPassword) return 'Passwords do not match'
  return ''
}

export function SignUpForm({ onSignedUp }: Props) {
  const signup = useSignup()
  const { bind, invalid, onSubmit } = useCheckedForm(
    { discordUsername: '', email: '', password: '', confirmPassword: '' },
    validateSignup,
    signup.reset,
  )
  const submit = onSubmit((values) => {
    const email = values.email.trim()
    signup.mutate(
      { email, password: values.password, confirmPassword: values.confirmPassword, discordUsername: values.discordUsername.trim() },
      {
        onSuccess: (res) =>
          onSignedUp(
            email,
            values.password,
            res?.message || 'Account created! Please check your email for OTP verification.',
            res?.resend_after ?? OTP_RESEND_COOLDOWN_S,
          ),
      },
    )
  })

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Sign up">
      <TextField id="signup-discord" label="Discord username" autoComplete="username" data-autofocus {...bind('discordUsername')} required />
      <TextField id="signup-email" label="Email" type="email" autoComplete="email" {...bind('email')} required />
      <TextField id="signup-password" label="Password" type="password" autoComplete="new-password" {...bind('password')} required />
      <TextField id="signup-confirm" label="Confirm password" type="password" autoComplete="new-password" {...bind('confirmPassword')} required />
      <ErrorMessage error={invalid || signup.error} />
      <SubmitButton className="btn btn-primary btn-block" pending={signup.isPending} pendingLabel="Creating account…">
        Sign Up
      </SubmitButton>
    </form>
  )
}
