import { useState } from 'react'

function initials(name: string) {
  const parts = name.trim().split(/[\s_.-]+/).filter(Boolean)
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase()
}

/** A round picture, or the name's initials when there is none or it fails to load. */
export function Avatar({ src, name, size = 48 }: { src?: string | null; name: string; size?: number }) {
  const [failed, setFailed] = useState(false)
  if (!src || failed) {
    return (
      <span className="avatar avatar-initials" style={{ width: size, height: size, fontSize: size / 2.6 }} aria-hidden="true">
        {initials(name)}
      </span>
    )
  }
  return (
    <img
      className="avatar"
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  )
}
