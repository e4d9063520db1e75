// A team's badge: its logo, else its letter on the league's gradient. The one mark the site's team
// cards and the stream overlays show, at any size (the corners and the letter scale with it).
export function TeamBadge({ letter, logo, size = 48 }: { letter: string; logo?: string | null; size?: number }) {
  if (logo) return <img className="team-badge" src={logo} alt="" width={size} height={size} loading="lazy" />
  return (
    <span className="team-badge team-badge-letter" style={{ width: size, height: size, fontSize: Math.round(size * 0.46) }} aria-hidden="true">
      {letter}
    </span>
  )
}
