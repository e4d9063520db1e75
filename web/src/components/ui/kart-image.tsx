import { useState } from 'react'
import defaultKart from '@/assets/default-kart.svg'

/** A kart picture that falls back to the default kart when missing or broken (docs/site.md, "Forms and their checks"). */
export function KartImage({ src, alt, className }: { src: string | null | undefined; alt: string; className?: string }) {
  // Remember which address failed, so a new src gets its own chance.
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  const url = !src || failedSrc === src ? defaultKart : src
  return (
    <img
      className={className ?? 'kart-img'}
      src={url}
      alt={alt}
      loading="lazy"
      decoding="async"
      width={320}
      height={200}
      data-fallback={url === defaultKart ? 'true' : undefined}
      onError={() => setFailedSrc(src ?? null)}
    />
  )
}
