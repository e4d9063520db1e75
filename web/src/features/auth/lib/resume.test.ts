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
    expect(viewAfterSignIn('login', statsMissing, false, false)).toBeNull()
    expect(viewAfterSignIn('login', statsMissing, false, true)).toBe('stats')
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
