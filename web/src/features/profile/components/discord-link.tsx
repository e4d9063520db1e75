// The proven Discord link: "Link Discord" (Discord's OAuth2, when the server has it configured) and
// Unlink. A typed name is shown "unverified": only the OAuth2 flow or the bot's !register prove one.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Message } from '@/components/ui/popup'
import { useAppConfig } from '@/config/app-config'
import { errorMessage } from '@/lib/api-client'
import { userQueryKey, type User } from '@/lib/auth'
import { discordAuthorizeUrl, unlinkDiscord } from '../api/account'
import { clearDiscordOutcome, peekDiscordOutcome, type DiscordOutcome } from '../lib/discord-outcome'

type Props = {
  user: User
  /** Sends the browser to Discord (tests pass their own). */
  go?: (url: string) => void
}

export function DiscordLink({ user, go = (url) => window.location.assign(url) }: Props) {
  const qc = useQueryClient()
  const { discord_link: configured } = useAppConfig()
  const [outcome, setOutcome] = useState<DiscordOutcome | null>(peekDiscordOutcome)
  useEffect(clearDiscordOutcome, []) // shown once
  const [busy, setBusy] = useState(false)
  const linked = user.discord_verified

  async function link() {
    setBusy(true)
    setOutcome(null)
    try {
      const { url } = await discordAuthorizeUrl()
      go(url)
    } catch (err) {
      setOutcome({ kind: 'error', text: errorMessage(err, 'Could not start linking Discord') })
      setBusy(false)
    }
  }

  async function unlink() {
    setBusy(true)
    setOutcome(null)
    try {
      const res = await unlinkDiscord()
      if (res?.user) qc.setQueryData(userQueryKey, res.user)
      else void qc.invalidateQueries({ queryKey: userQueryKey })
      void qc.invalidateQueries({ queryKey: ['tournament'] })
      setOutcome({ kind: 'success', text: res?.message || 'Discord account unlinked.' })
    } catch (err) {
      setOutcome({ kind: 'error', text: errorMessage(err, 'Could not unlink Discord') })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="setting discord-link">
      <div className="setting-row">
        <span>
          <span className="setting-label">Discord account</span>
          <span className="setting-value">
            {linked ? (
              <>
                {user.discord_username} <span className="badge-verified">✓ verified</span>
              </>
            ) : user.discord_username ? (
              <>
                {user.discord_username} <span className="badge-unverified">unverified</span>
              </>
            ) : (
              'not linked'
            )}
          </span>
        </span>
        {linked ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={unlink} disabled={busy}>
            {busy ? 'Unlinking…' : 'Unlink'}
          </button>
        ) : configured ? (
          <button type="button" className="btn btn-discord btn-sm" onClick={link} disabled={busy}>
            {busy ? 'Opening Discord…' : 'Link Discord'}
          </button>
        ) : null}
      </div>
      {!linked ? (
        <p className="field-hint">
          {configured ? 'Sign in with Discord to prove the account is yours, or ' : 'To prove your account, '}
          send <code>!register {user.email}</code> to the league bot and give it back the code we e-mail you.
        </p>
      ) : null}
      {outcome ? <Message kind={outcome.kind}>{outcome.text}</Message> : null}
    </div>
  )
}
