import { useEffect, useRef, useState } from 'react'
import { Link, useLocation } from '@/lib/router'
import { useSession } from '@/lib/auth'
import { useScrolled } from '@/lib/use-scrolled'
import { openAuthModal } from '@/lib/window-events'
import { Logo } from './logo'
import { staffRole } from '@/lib/authorization'
import { SearchBox } from '@/features/records/components/search-box'

const LINKS = [
  { to: '/#home', label: 'Home', match: (p: string, h: string) => p === '/' && h !== '#news' },
  { to: '/tournament', label: 'Tournament', match: (p: string) => p === '/tournament' || p.startsWith('/tournament/') },
  { to: '/auction', label: 'Auction', match: (p: string) => p.startsWith('/auction') },
  { to: '/league', label: 'League', match: (p: string) => ['/league', '/players/', '/tournaments/', '/search'].some((s) => p.startsWith(s)) },
  { to: '/#news', label: 'News', match: (p: string, h: string) => p === '/' && h === '#news' },
  { to: '/contact', label: 'Contact', match: (p: string) => p.startsWith('/contact') },
]

/** A signed-in player's team and match rooms. A captain's and an organiser's bar has no room for it
 * beside their own link: the captain's page and the organisers' nav lead to the rooms. */
const ROOMS_LINK = { to: '/rooms', label: 'Rooms', match: (p: string) => p.startsWith('/rooms') }

/** Links of the league's staff: a captain's own view, the organisers' page. */
const STAFF_LINKS = {
  captain: { to: '/captain', label: 'Captain', match: (p: string) => p.startsWith('/captain') },
  staff: { to: '/admin', label: 'Admin', match: (p: string) => p.startsWith('/admin') },
  admin: { to: '/admin', label: 'Admin', match: (p: string) => p.startsWith('/admin') },
}

/** `onIntent(to)`: the visitor is about to follow a link to `to` (pointer over it, focus, touch). */
export function Header({ onIntent }: { onIntent?: (to: string) => void } = {}) {
  const scrolled = useScrolled()
  const [menuOpen, setMenuOpen] = useState(false)
  const { pathname, hash } = useLocation()
  const { user, logout, isLoading } = useSession()
  const staff = staffRole(user)
  const headerRef = useRef<HTMLElement>(null)

  // The mobile menu closes whenever the page or the session changes (navigating, signing in
  // or out), so it never stays open over what the player came to see.
  const where = `${pathname}${hash}|${user?.id ?? ''}`
  const [seen, setSeen] = useState(where)
  if (seen !== where) {
    setSeen(where)
    setMenuOpen(false)
  }

  // While open: Escape or a click outside the header closes it.
  useEffect(() => {
    if (!menuOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false)
    }
    const onPointer = (e: PointerEvent) => {
      if (!headerRef.current?.contains(e.target as Node)) setMenuOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [menuOpen])

  const closeMenu = () => setMenuOpen(false)
  /** Opening the auth modal (or any action) from the menu closes the menu first. */
  const fromMenu = (fn: () => void) => () => {
    closeMenu()
    fn()
  }

  return (
    <header
      ref={headerRef}
      className={`site-header ${scrolled ? 'scrolled' : ''}${user ? ' signed-in' : ''}`}
      data-scrolled={scrolled ? 'true' : 'false'}
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="header-inner">
        <Link to="/" className="brand" aria-label="Pitlane home" onClick={closeMenu}>
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
              {[...LINKS, ...(user && !staff ? [ROOMS_LINK] : []), ...(staff ? [STAFF_LINKS[staff]] : [])].map((l) => {
                const active = l.match(pathname, hash)
                return (
                  <li key={l.to}>
                    <Link
                      to={l.to}
                      className={`nav-link ${active ? 'active' : ''}`}
                      aria-current={active ? 'page' : undefined}
                      onClick={closeMenu}
                      onPointerEnter={() => onIntent?.(l.to)}
                      onFocus={() => onIntent?.(l.to)}
                      onTouchStart={() => onIntent?.(l.to)}
                    >
                      {l.label}
                    </Link>
                  </li>
                )
              })}
            </ul>
          </nav>
          <div className="auth-area">
            {isLoading ? null : <SearchBox label="Site search" onDone={closeMenu} />}
            {/* Where the bar has no room for the field (a signed-in account, 900 to 1179 px): the search page. */}
            {isLoading ? null : (
              <Link to="/search" className="search-link" aria-label="Find a player or team" title="Find a player or team" onClick={closeMenu}>
                <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
                  <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
                </svg>
              </Link>
            )}
            {isLoading ? null : user ? (
              <>
                <button type="button" className="user-email" onClick={fromMenu(() => openAuthModal('login'))} title="Your profile">
                  {user.email}
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={fromMenu(logout)}>
                  Logout
                </button>
              </>
            ) : (
              <>
                <button type="button" className="btn btn-ghost btn-sm" onClick={fromMenu(() => openAuthModal('login'))}>
                  Login
                </button>
                <button type="button" className="btn btn-primary btn-sm" onClick={fromMenu(() => openAuthModal('signup'))}>
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
