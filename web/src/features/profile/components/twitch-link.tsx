// The profile's Twitch channel: "Link Twitch" (Twitch's OAuth2: the channel is the one Twitch names)
// and Unlink. Shown only on a site with streams.
import { useState } from 'react'
import { ActionButton } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'
import { useAppConfig } from '@/config/app-config'
import { errorMessage } from '@/lib/api-client'
import { useLinkTwitch, useMyChannels, useUnlinkTwitch } from '@/lib/streams'

export function TwitchLink({ go = (url: string) => window.location.assign(url) }: { go?: (url: string) => void }) {
  const { streams: on } = useAppConfig()
  const { data } = useMyChannels(!!on)
  const link = useLinkTwitch(go)
  const unlink = useUnlinkTwitch()
  const [msg, setMsg] = useState<{ kind: 'success' | 'error'; text: string } | null>(null)
  if (!on) return null
  const channel = data?.channels.find((c) => c.platform === 'twitch')
  return (
    <div className="setting twitch-link">
      <div className="setting-row">
        <span>
          <span className="setting-label">Twitch channel</span>
          <span className="setting-value">{channel ? channel.display_name || channel.channel : 'not linked'}</span>
        </span>
        {channel ? (
          <ActionButton
            className="btn btn-ghost btn-sm"
            pending={unlink.isPending}
            pendingLabel="Unlinking…"
            onClick={() =>
              unlink.mutate(undefined, {
                onSuccess: (res) => setMsg({ kind: 'success', text: res?.message || 'Channel unlinked.' }),
                onError: (err) => setMsg({ kind: 'error', text: errorMessage(err, 'Could not unlink Twitch') }),
              })
            }
          >
            Unlink
          </ActionButton>
        ) : (
          <ActionButton
            className="btn btn-twitch btn-sm"
            pending={link.isPending || link.isSuccess}
            pendingLabel="Opening Twitch…"
            onClick={() => link.mutate(undefined, { onError: (err) => setMsg({ kind: 'error', text: errorMessage(err, 'Could not start linking Twitch') }) })}
          >
            Link Twitch
          </ActionButton>
        )}
      </div>
      {!channel ? <p className="field-hint">Link your channel and you show up on Streams, with a live badge on your matches, when you go live.</p> : null}
      {msg ? <Message kind={msg.kind}>{msg.text}</Message> : null}
    </div>
  )
}
