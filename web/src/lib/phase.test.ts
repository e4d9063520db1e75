import { allows, closedBecause, offersFor, viewerOf, type Phase } from './phase'
import rules from './phase-rules.json'

const phases: Phase[] = ['registration', 'auction', 'matches', 'completed']

describe('the phase map', () => {
  it('offers bids to a captain during the auction only', () => {
    expect(phases.filter((p) => offersFor(p, 'captain').bid)).toEqual(['auction'])
    expect(phases.filter((p) => offersFor(p, 'player').bid)).toEqual([])
    expect(phases.filter((p) => offersFor(p, 'organiser').bid)).toEqual([])
  })

  it('shows the lot under the hammer until the auction is over', () => {
    expect(phases.filter((p) => offersFor(p, 'captain').lotStage)).toEqual(['registration', 'auction'])
  })

  it('calls the auction live during the auction only', () => {
    expect(phases.filter((p) => offersFor(p, 'guest').liveAuction)).toEqual(['auction'])
  })

  it('offers Register in the phases the server takes it, to everyone (a visitor signs in on the way)', () => {
    for (const viewer of ['guest', 'player', 'captain', 'organiser'] as const) {
      expect(phases.filter((p) => offersFor(p, viewer).register)).toEqual(rules.register.phases)
    }
    expect(offersFor(undefined, 'guest').register).toBe(false)
  })

  it('offers unregistering while registering only, and to signed-in players', () => {
    expect(phases.filter((p) => offersFor(p, 'player').unregister)).toEqual(['registration'])
    expect(offersFor('registration', 'guest').unregister).toBe(false)
    expect(allows('unregister', 'matches', 'player')).toBe(false)
  })

  it('offers "Sign in as Captain" to the signed-out only', () => {
    expect(offersFor('auction', 'guest').captainSignIn).toBe(true)
    for (const v of ['player', 'captain', 'organiser'] as const) expect(offersFor('auction', v).captainSignIn).toBe(false)
  })

  it('gives organisers the organisers’ actions and players not', () => {
    expect(allows('open a lot', 'auction', 'organiser')).toBe(true)
    expect(allows('open a lot', 'auction', 'captain')).toBe(false)
    expect(allows('speak in the captains room', 'matches', 'captain')).toBe(true)
    expect(allows('speak in the captains room', 'completed', 'captain')).toBe(false)
  })

  it('offers nothing before the phase is known', () => {
    expect(allows('register', undefined, 'player')).toBe(false)
    expect(offersFor(undefined, 'captain').bid).toBe(false)
  })

  it('says why an action is closed', () => {
    expect(closedBecause('bid', 'matches')).toBe('Only during auction: now matches under way.')
    expect(closedBecause('bid', 'auction')).toBe('')
  })

  it('knows the viewer from the account', () => {
    expect(viewerOf(null)).toBe('guest')
    expect(viewerOf({ role: 'user' })).toBe('player')
    expect(viewerOf({ role: 'captain' })).toBe('captain')
    expect(viewerOf({ role: 'admin' })).toBe('organiser')
    expect(viewerOf({ role: 'staff', staff_of: ['PPL7'] }, 'PPL7')).toBe('organiser')
    expect(viewerOf({ role: 'staff', staff_of: ['PPL7'] }, 'PPL8')).toBe('player')
  })
})
