export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="pl-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4A90E2" />
          <stop offset="1" stopColor="#7B68EE" />
        </linearGradient>
      </defs>
      <rect x="1" y="1" width="30" height="30" rx="8" fill="url(#pl-logo)" />
      <path d="M8 22h16M10 22l3-9h9l2 5" stroke="#fff" strokeWidth="2.4" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="11" cy="23" r="2.6" fill="#00CED1" />
      <circle cx="22" cy="23" r="2.6" fill="#00CED1" />
    </svg>
  )
}
