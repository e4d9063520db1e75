// What the site's pages show below or over their content and never before it: the footer, the
// back-to-top button and the notification toasts. A chunk of its own, loaded just after the
// first render, so the first page's JavaScript is the header and the page.
import { BackToTop } from '@/components/layout/back-to-top'
import { Footer } from '@/components/layout/footer'
import { OfflineNote } from '@/components/layout/offline-note'
import { NoticeToasts } from '@/features/notifications/components/notice-toasts'
import { StreamsLive } from '@/features/streams/components/streams-live'

export default function SiteExtras() {
  return (
    <>
      <Footer />
      <BackToTop />
      <NoticeToasts />
      <OfflineNote />
      <StreamsLive />
    </>
  )
}
