// Keeps the streams list current for every page (the live badges, /streams): one subscription to
// the public `streams` topic, each stream.changed applied to the cached list, a resync read again.
import { useQueryClient } from '@tanstack/react-query'
import { useAppConfig } from '@/config/app-config'
import { useLiveTopic } from '@/lib/live'
import { applyStreamChange, streamsKey, type Stream } from '@/lib/streams'

export function StreamsLive() {
  const { streams: on } = useAppConfig()
  const qc = useQueryClient()
  const reread = () => void qc.invalidateQueries({ queryKey: streamsKey })
  useLiveTopic(
    'streams',
    {
      onEvent: (ev) => {
        if (ev.event === 'stream.changed') qc.setQueryData<Stream[]>(streamsKey, (list) => applyStreamChange(list, ev.data as Stream))
      },
      onResync: reread,
      onReconnect: reread,
    },
    { enabled: !!on },
  )
  return null
}
