import { Spinner } from '@/components/ui/spinner'
import { useAppConfig, useAppConfigRead } from '@/config/app-config'
import { StreamsPage } from '@/features/streams/components/streams-page'
import NotFound from './not-found'

/** /streams exists on a site with streams only; elsewhere it is any unknown page. */
export default function StreamsRoute() {
  const { streams } = useAppConfig()
  if (!useAppConfigRead())
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    )
  return streams ? <StreamsPage /> : <NotFound />
}
