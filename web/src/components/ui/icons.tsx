// Small inline icons (no emoji: not every system has a colour-emoji font).
type P = { size?: number }

export function TrophyIcon({ size = 14 }: P) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V17h3v2H8v-2h3v-2.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3V3zm0 4H6v1a2 2 0 0 0 1 1.7V7zm10 0v2.7A2 2 0 0 0 18 8V7h-1zM6 20h12v2H6z"
      />
    </svg>
  )
}

export function CrownIcon({ size = 14 }: P) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M3 7l4.5 4L12 4l4.5 7L21 7l-2 11H5L3 7zm2 13h14v2H5z" />
    </svg>
  )
}

export function MedalIcon({ size = 14 }: P) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M7 2h4l1 4 1-4h4l-3 7.3A6 6 0 1 1 10 9.3L7 2zm5 9a4 4 0 1 0 0 8 4 4 0 0 0 0-8z" />
    </svg>
  )
}

export function FlameIcon({ size = 14 }: P) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 2c1 3.5 5 6 5 11a5 5 0 0 1-10 0c0-2.3 1-3.9 2.2-5 .1 1.8.9 3 2.1 3.5C11 8.6 11.3 5 12 2z" />
    </svg>
  )
}

export function PeopleIcon({ count, size = 40 }: P & { count: 1 | 2 | 3 }) {
  const xs = count === 1 ? [12] : count === 2 ? [8, 16] : [5, 12, 19]
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {xs.map((x, i) => (
        <g key={x} fill="currentColor" opacity={count === 3 && i !== 1 ? 0.7 : 1}>
          <circle cx={x} cy={8} r={count === 1 ? 4 : 3} />
          <path d={count === 1 ? `M${x - 7} 21c0-5 3-7 7-7s7 2 7 7z` : `M${x - 4.5} 20c0-4 2-5.5 4.5-5.5s4.5 1.5 4.5 5.5z`} />
        </g>
      ))}
    </svg>
  )
}
