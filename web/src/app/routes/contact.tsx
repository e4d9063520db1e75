import { useEffect } from 'react'
import { Link } from '@/lib/router'

const SKILLS = [
  'Node.js',
  'React/Vite',
  'JavaScript',
  'Python and AI/ML basics',
  'REST APIs and webhooks',
  'Auth and JWT',
  'MySql',
  'Git/GitHub and CI basics',
  'UI/UX and theming',
]

const PROJECTS = [
  {
    title: 'League Discord bot',
    text: 'The community bot of the PPL server: !register links a member to a verified account, !profile, !matches and !bracket answer from live league data, and !admin gives organisers their commands.',
    tags: ['Discord', 'Bot', 'Webhooks'],
  },
  {
    title: 'Tournament assistant (RAG)',
    text: 'A question-answering assistant for players: it retrieves the rulebook, schedule and standings and lets a generative model answer with the sources it used.',
    tags: ['Retrieval', 'Generative AI', 'Python'],
  },
  {
    title: 'Pitlane — this website',
    text: 'Sign-up with e-mail OTP or Google, stats read from a screenshot, live registration lists, teams, and a live presentation deck.',
    tags: ['React', 'Go', 'PostgreSQL', 'WebSockets'],
    link: '/',
  },
]

export default function ContactRoute() {
  useEffect(() => {
    document.title = 'Contact · Pitlane'
  }, [])
  return (
    <div className="page contact-page">
      <h1 className="sr-only">Contact</h1>
      <section className="portfolio-card" aria-labelledby="dev-name">
        <svg className="portfolio-avatar" viewBox="0 0 96 96" role="img" aria-label="Developer avatar">
          <defs>
            <linearGradient id="av" x1="0" y1="0" x2="1" y2="1">
              <stop offset="0" stopColor="#4A90E2" />
              <stop offset="1" stopColor="#7B68EE" />
            </linearGradient>
          </defs>
          <circle cx="48" cy="48" r="46" fill="url(#av)" />
          <circle cx="48" cy="38" r="16" fill="#f4f6fb" />
          <path d="M18 82c6-16 18-22 30-22s24 6 30 22" fill="#f4f6fb" />
          <circle cx="48" cy="48" r="46" fill="none" stroke="#00CED1" strokeWidth="3" />
        </svg>
        <div>
          <h2 id="dev-name">The Pitlane developer</h2>
          <p className="degree">Student of Artificial Intelligence and Machine Learning</p>
          <ul className="tags">
            <li>AI &amp; ML student</li>
            <li>Full-stack developer</li>
            <li>Bot builder</li>
          </ul>
          <p className="muted">
            Reach me on the PPL Discord server (#help) or through the newsletter form below. Feedback on the site is always
            welcome.
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="skills-title">
        <h2 id="skills-title">Skills</h2>
        <ul className="skills">
          {SKILLS.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </section>

      <section className="section" aria-labelledby="projects-title">
        <h2 id="projects-title">Projects</h2>
        <div className="project-grid">
          {PROJECTS.map((p) => (
            <article key={p.title} className="project-card">
              <h3>{p.title}</h3>
              <p>{p.text}</p>
              <ul className="tags small">
                {p.tags.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
              {p.link ? (
                <Link to={p.link} className="section-link">
                  Open →
                </Link>
              ) : null}
            </article>
          ))}
        </div>
      </section>
    </div>
  )
}
