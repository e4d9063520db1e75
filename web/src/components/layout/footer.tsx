import { useAppConfig } from '@/config/app-config'
import { Link } from '@/lib/router'
import { Logo } from './logo'
import { NewsletterForm } from './newsletter-form'

export function Footer() {
  const { streams } = useAppConfig()
  return (
    <footer className="site-footer">
      <div className="footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-title">
            <Logo size={24} /> About Pitlane
          </h2>
          <p>
            Pitlane is the community home of the PPL Smash Karts league: sign up, link Discord, upload your stats and race
            for your team. Run by players, for players.
          </p>
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="footer-title">
            Useful links
          </h2>
          <ul className="footer-links">
            <li>
              <Link to="/#home">Home</Link>
            </li>
            <li>
              <Link to="/tournament">Tournament</Link>
            </li>
            <li>
              <Link to="/#news">News</Link>
            </li>
            <li>
              <Link to="/#help">Help</Link>
            </li>
            <li>
              <Link to="/#privacy">Privacy</Link>
            </li>
            <li>
              <Link to="/#terms">Terms</Link>
            </li>
            <li>
              <Link to="/ppt?follow" title="Follow the presenter's slides live">
                Presentation (live)
              </Link>
            </li>
            <li>
              <Link to="/ppt" title="Browse the ten slides at your own pace">
                Slide deck
              </Link>
            </li>
            {streams ? (
              <li>
                <Link to="/streams">Streams: who is live</Link>
              </li>
            ) : null}
            <li>
              <Link to="/contact">Contact</Link>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-title">
            Contact
          </h2>
          <ul className="footer-contact">
            <li>
              Discord: the PPL server, channel <strong>#help</strong>
            </li>
            <li>
              Bot: type <code>!profile</code> in any league channel
            </li>
            <li>
              Developer: <Link to="/contact">portfolio and contact</Link>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-news">
          <h2 id="footer-news" className="footer-title">
            Newsletter
          </h2>
          <NewsletterForm />
        </section>
      </div>
      <p className="copyright">© {new Date().getFullYear()} Pitlane · Smash Karts community league. Not affiliated with the game’s makers.</p>
    </footer>
  )
}
