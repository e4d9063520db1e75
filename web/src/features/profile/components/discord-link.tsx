// The proven Discord link: "Link Discord" (Discord's OAuth2, when the server has it configured) and
// Unlink. A typed name is shown "unverified": only the OAuth2 flow or the bot's !register prove one.
import { useEffect, useState } from 'react'
import { ActionButton } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { useAppConfig } from '@/config/app-config'
import { errorMessage } from '@/lib/api-client'
import type { User } from '@/lib/auth'
import { useLinkDiscord } from '../api/link-discord'
import { useUnlinkDiscord } from '../api/unlink-discord'
import { clearDiscordOutcome, peekDiscordOutcome, type DiscordOutcome } from '../lib/discord-outcome'

type Props = {
  user: User
  /** Sends the browser to Discord (tests pass their own). */
  go?: (url: string) => void
}

export function DiscordLink({ user, go = (url) => window.location.assign(url) }: Props) {
  const { discord_link: configured } = useAppConfig()
  const [outcome, setOutcome] = useState<DiscordOutcome | null>(peekDiscordOutcome)
  useEffect(clearDiscordOutcome, []) // shown once
  const linkDiscord = useLinkDiscord(go)
  const unlinkDiscord = useUnlinkDiscord()
  const linked = user.discord_verified

  function link() {
    setOutcome(null)
    linkDiscord.mutate(undefined, {
      onError: (err) => setOutcome({ kind: 'error', text: errorMessage(err, 'Could not start linking Discord') }),
    })
  }

  function unlink() {
    setOutcome(null)
    unlinkDiscord.mutate(undefined, {
      onSuccess: (res) => setOutcome({ kind: 'success', text: res?.message || 'Discord account unlinked.' }),
      onError: (err) => setOutcome({ kind: 'error', text: errorMessage(err, 'Could not unlink Discord') }),
    })
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
          <ActionButton className="btn btn-ghost btn-sm" onClick={unlink} pending={unlinkDiscord.isPending} pendingLabel="Unlinking…">
            Unlink
          </ActionButton>
        ) : configured ? (
          <ActionButton
            className="btn btn-discord btn-sm"
            onClick={link}
            pending={linkDiscord.isPending || linkDiscord.isSuccess}
            pendingLabel="Opening Discord…"
          >
            Link Discord
          </ActionButton>
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
