import { useEffect, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { useSession } from '@/lib/auth'
import { useScrolled } from '@/lib/use-scrolled'
import { openAuthModal } from '@/lib/window-events'
import { Logo } from './logo'

const LINKS = [
  { to: '/#home', label: 'Home', match: (p: string, h: string) => p === '/' && h !== '#news' },
  { to: '/tournament', label: 'Tournament', match: (p: string) => p.startsWith('/tournament') },
  { to: '/#news', label: 'News', match: (p: string, h: string) => p === '/' && h === '#news' },
  { to: '/contact', label: 'Contact', match: (p: string) => p.startsWith('/contact') },
]

export function Header() {
  const scrolled = useScrolled()
  const [menuOpen, setMenuOpen] = useState(false)
  const { pathname, hash } = useLocation()
  const { user, logout, isLoading } = useSession()

  useEffect(() => setMenuOpen(false), [pathname, hash])

  return (
    <header className={`site-header ${scrolled ? 'scrolled' : ''}`} data-scrolled={scrolled ? 'true' : 'false'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="header-inner">
        <Link to="/" className="brand" aria-label="Pitlane home">
          <Logo />
          <span className="brand-name">Pitlane</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span className="burger" aria-hidden="true" />
        </button>
        <div id="site-nav" className={`nav-wrap ${menuOpen ? 'open' : ''}`}>
          <nav aria-label="Main">
            <ul className="nav-links">
              {LINKS.map((l) => {
                const active = l.match(pathname, hash)
                return (
                  <li key={l.to}>
                    <Link to={l.to} className={`nav-link ${active ? 'active' : ''}`} aria-current={active ? 'page' : undefined}>
                      {l.label}
                    </Link>
                  </li>
                )
              })}
            </ul>
          </nav>
          <div className="auth-area">
            {isLoading ? null : user ? (
              <>
                <button type="button" className="user-email" onClick={() => openAuthModal('login')} title="Your profile">
                  {user.email}
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={logout}>
                  Logout
                </button>
              </>
            ) : (
              <>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => openAuthModal('login')}>
                  Login
                </button>
                <button type="button" className="btn btn-primary btn-sm" onClick={() => openAuthModal('signup')}>
                  Sign Up
                </button>
              </>
            )}
          </div>
        </div>
      </div>
    </header>
  )
}
