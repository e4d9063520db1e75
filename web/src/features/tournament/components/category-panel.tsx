import { PeopleIcon } from '@/components/ui/icons'

const CATEGORIES = [
  {
    name: 'Solo',
    count: 1 as const,
    text: 'Every kart for itself. Eight drivers in a Smash Karts room, points for placement and for every kill.',
  },
  {
    name: 'Duo',
    count: 2 as const,
    text: 'Two drivers from the same team share a room with three other pairs; the pair’s kills and placements add up.',
  },
  {
    name: 'Squad',
    count: 3 as const,
    text: 'Full team fixtures: captains field their line-up, team against team, and the Points Table counts the result.',
  },
]

export function CategoryPanel() {
  return (
    <div className="category-grid">
      {CATEGORIES.map((c) => (
        <article key={c.name} className="category-card">
          <span className="category-icon">
            <PeopleIcon count={c.count} />
          </span>
          <h3>{c.name}</h3>
          <p>{c.text}</p>
        </article>
      ))}
    </div>
  )
}
