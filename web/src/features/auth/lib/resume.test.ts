import { describe, expect, it } from 'vitest'
import { makeUser } from '@/testing/fixtures'
import { currentStep, hasDiscord, resolveView, viewAfterSignIn } from './resume'

describe('where a player resumes (the player\'s path)', () => {
  const discordMissing = makeUser({ discord_username: null })
  const statsMissing = makeUser()
  const notRegistered = makeUser({ sk_stats_uploaded: true })
  const done = makeUser({ sk_stats_uploaded: true, tournament_registered: true })

  it('case 1 resumes at the Discord step', () => {
    expect(resolveView('register', discordMissing)).toBe('discord')
    expect(currentStep(discordMissing)).toBe(2)
  })

  it('case 2 resumes at the stats upload', () => {
    expect(resolveView('register', statsMissing)).toBe('stats')
  })

  it('case 3 resumes at registration', () => {
    expect(resolveView('signup', notRegistered)).toBe('stats')
    expect(currentStep(notRegistered)).toBe(4)
  })

  it('case 4 (fully registered) shows the registered dashboard', () => {
    expect(resolveView('register', done)).toBe('registered')
    expect(currentStep(done)).toBe(5)
  })

  it('an unverified e-mail goes back to sign-up', () => {
    expect(resolveView('register', makeUser({ email_verified: false }))).toBe('signup')
  })

  it('signed out, each mode opens its view', () => {
    expect(resolveView('login', null)).toBe('signin')
    expect(resolveView('signup', null)).toBe('signup')
    expect(resolveView('register', null)).toBe('signup')
    expect(resolveView('statsUpload', null)).toBe('stats')
  })

  it('signed in, login shows the profile and statsUpload the stats view', () => {
    expect(resolveView('login', done)).toBe('profile')
    expect(resolveView('statsUpload', done)).toBe('stats')
  })

  it('after Google sign-in: Discord step first, then stats', () => {
    expect(viewAfterSignIn('login', discordMissing, true, false)).toBe('discord')
    expect(viewAfterSignIn('register', statsMissing, true, false)).toBe('stats')
    expect(viewAfterSignIn('login', statsMissing, true, false)).toBe('stats')
    expect(viewAfterSignIn('login', done, true, false)).toBeNull()
    expect(viewAfterSignIn('login', statsMissing, false, true)).toBe('stats')
  })

  it('a profile left unfinished is asked for again at the next sign-in, until it is done', () => {
    const gamesMissing = makeUser({ sk_stats_uploaded: true, stats_data: { level: 40, kills: 900, deaths: 300, games_played: 0 } })
    const complete = makeUser({ sk_stats_uploaded: true, stats_data: { level: 40, kills: 900, deaths: 300, games_played: 700 } })
    expect(viewAfterSignIn('login', statsMissing, false, false)).toBe('stats')
    expect(viewAfterSignIn('login', gamesMissing, false, false)).toBe('stats')
    expect(viewAfterSignIn('login', { ...gamesMissing, tournament_registered: true }, false, false)).toBe('stats')
    expect(currentStep(gamesMissing)).toBe(3)
    expect(viewAfterSignIn('login', complete, false, false)).toBeNull()
    expect(currentStep(complete)).toBe(4)
    // Organisers need no stats, nor an organiser's account waiting for its second factor.
    expect(viewAfterSignIn('login', makeUser({ role: 'admin' }), false, false)).toBeNull()
    expect(viewAfterSignIn('login', makeUser({ role: 'staff', staff_of: ['PPL7'] }), false, false)).toBeNull()
    const locked = makeUser({ security: { organiser_locked: true } as NonNullable<ReturnType<typeof makeUser>['security']> })
    expect(viewAfterSignIn('login', locked, false, false)).toBeNull()
  })
})

describe('the Discord step', () => {
  it('is done with a typed name (unverified) or a proven link', () => {
    expect(hasDiscord(makeUser({ discord_username: 'typed', discord_verified: false }))).toBe(true)
    expect(hasDiscord(makeUser({ discord_username: 'linked', discord_id: '123', discord_verified: true }))).toBe(true)
    expect(hasDiscord(makeUser({ discord_username: '  ', discord_verified: false }))).toBe(false)
    expect(hasDiscord(makeUser({ discord_username: null, discord_verified: false }))).toBe(false)
  })
})
