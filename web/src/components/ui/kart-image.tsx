import { useEffect, useState } from 'react'
import defaultKart from '@/assets/default-kart.svg'

export const DEFAULT_KART = defaultKart

/** A kart picture that falls back to the default kart when missing or broken (seed §8). */
export function KartImage({ src, alt, className }: { src: string | null | undefined; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false)
  useEffect(() => setFailed(false), [src])
  const url = !src || failed ? defaultKart : src
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
      onError={() => setFailed(true)}
    />
  )
}
