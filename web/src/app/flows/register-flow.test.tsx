import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { makeUser, statsTabAnswer } from '@/testing/fixtures'
import { makeTournamentInfo } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import type { User } from '@/lib/auth'
import { infoKey } from '@/features/tournament/api/registrations'
import type { TournamentStatus } from '@/features/tournament/types'
import { MSG, RegisterFlow, type PendingRegistration } from './register-flow'

const extracted = {
  discord_username: 'Zoom',
  level: '42',
  kills: '300',
  deaths: '100',
  total_games: '150',
  sk_id: 'SK-1',
  kd_ratio: '3.00',
  cart_image: null,
}

function setup(
  user: User | null,
  opts: { pending?: PendingRegistration; view?: 'stats' | 'registered'; registerIntent?: boolean; phase?: TournamentStatus } = {},
) {
  const requireAuth = vi.fn()
  const close = vi.fn()
  const setPending = vi.fn()
  const utils = renderApp(
    <RegisterFlow
      user={user}
      view={opts.view ?? 'stats'}
      registerIntent={opts.registerIntent}
      requireAuth={requireAuth}
      close={close}
      pending={opts.pending ?? null}
      setPending={setPending}
    />,
    // The season's phase, as the page has it: registration unless a test says otherwise.
    { user, path: '/', extraRoutes: undefined, queries: [[infoKey('PPL7'), makeTournamentInfo(opts.phase ?? 'registration')]] },
  )
  return { ...utils, requireAuth, close, setPending }
}

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'stats.png', { type: 'image/png' })

function choose(file: File) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement
  fireEvent.change(input, { target: { files: [file] } })
}

describe('stats upload view', () => {
  it('accepts images only', async () => {
    mockApi({})
    setup(null)
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    expect(input).toHaveAttribute('accept', 'image/*')
    choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please choose an image file')
    expect(screen.getByRole('button', { name: 'UPLOAD STATS' })).toBeDisabled()
  })

  it('takes a dropped image, previews it, and removes it', async () => {
    mockApi({})
    setup(null)
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [png()] } })
    expect(await screen.findByAltText('Preview of the chosen stats screenshot')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect(screen.queryByAltText('Preview of the chosen stats screenshot')).not.toBeInTheDocument()
  })

  it("signed out: shows the card with 'Please login to save your stats' and a default kart", async () => {
    const api = mockApi({ 'POST /stats/extract': { body: { success: true, stats: extracted } } })
    setup(null)
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    expect(await screen.findByText(MSG.loginToSave)).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Zoom' })).toBeInTheDocument()
    expect(screen.getByText('3.00')).toBeInTheDocument()
    expect(screen.getByAltText("Zoom's kart")).toHaveAttribute('data-fallback', 'true')
    const form = api.callsTo('POST', '/stats/extract')[0].body as FormData
    expect(form.get('screenshot')).toBeInstanceOf(File)
  })

  it('signed out: registering asks to sign in and keeps the stats pending', async () => {
    mockApi({ 'POST /stats/extract': { body: { success: true, stats: extracted } } })
    const { requireAuth, setPending } = setup(null)
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Register for PPL7' }))
    expect(requireAuth).toHaveBeenCalled()
    expect(setPending).toHaveBeenCalledWith(expect.objectContaining({ register: true, stats: extracted }))
  })

  it("an extraction failure shows the message and the alert 'Error processing image…'", async () => {
    mockApi({ 'POST /stats/extract': { status: 502 } })
    setup(null)
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    expect(await screen.findByText(MSG.extractFailed)).toBeInTheDocument()
    expect(screen.getByText('Error processing image. Please try again with a clearer screenshot.')).toBeInTheDocument()
  })

  it('a refused upload (rate limit, wrong type) shows the server message without the clearer-screenshot alert', async () => {
    mockApi({ 'POST /stats/extract': { status: 429, body: { message: 'Too many uploads. Please wait a minute.' } } })
    setup(null)
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    expect(await screen.findByText('Too many uploads. Please wait a minute.')).toBeInTheDocument()
    expect(screen.queryByText('Error processing image. Please try again with a clearer screenshot.')).not.toBeInTheDocument()
  })

  it("REGISTER with no stats yet says why the upload comes first", async () => {
    mockApi({ 'GET /stats/get': { body: { stats: null } } })
    setup(makeUser({ sk_stats_uploaded: false }), { registerIntent: true })
    expect(await screen.findByText(MSG.needStats)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'UPLOAD STATS' })).toBeInTheDocument()
  })

  it("an empty answer says 'No data extracted from image'", async () => {
    mockApi({ 'POST /stats/extract': { body: { success: false, stats: null } } })
    setup(null)
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    expect(await screen.findByText('No data extracted from image')).toBeInTheDocument()
  })

  it('signed in: the extraction is saved by the server and the stored category is shown', async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: null } },
      'POST /stats/extract': { body: { success: true, stats: extracted } },
    })
    const user = makeUser()
    setup(user)
    await screen.findByRole('button', { name: 'UPLOAD STATS' })
    mockApi({
      'GET /stats/get': { body: { success: true, stats: { category: 4, kd: 3 } } },
      'POST /stats/extract': { body: { success: true, stats: extracted } },
      'GET /auth/profile': { body: { user } },
    })
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    const category = await screen.findByText('Tier', { selector: 'dt' })
    await waitFor(() => expect(category.nextElementSibling).toHaveTextContent('4'))
    expect(screen.queryByText(MSG.loginToSave)).not.toBeInTheDocument()
  })

  it("register without stats on the server says the seed's message", async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: { kd: 1, games_played: 3, category: 1 } } },
      'POST /tournament/register': { status: 400, body: { message: MSG.needStats } },
    })
    setup(makeUser({ sk_stats_uploaded: true }))
    fireEvent.click(await screen.findByRole('button', { name: 'Register for PPL7' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please upload your SK stats first before registering for the tournament!')
  })

  it("a failed registration without message says 'Failed to register for tournament'", async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: { kd: 1, games_played: 3, category: 1 } } },
      'POST /tournament/register': { status: 500 },
    })
    setup(makeUser({ sk_stats_uploaded: true }))
    fireEvent.click(await screen.findByRole('button', { name: 'Register for PPL7' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to register for tournament')
  })

  it("registering shows 'Registration Successful!' counting down 6 s, then goes to /tournament", async () => {
    const user = makeUser({ sk_stats_uploaded: true })
    const api = mockApi({
      'GET /stats/get': { body: { success: true, stats: { kd: 1, games_played: 3, category: 1 } } },
      'POST /tournament/register': { body: { success: true, registered: true, message: 'Registered' } },
      'GET /auth/profile': { body: { user: { ...user, tournament_registered: true } } },
    })
    const { close } = setup(user)
    const btn = await screen.findByRole('button', { name: 'Register for PPL7' })
    vi.useFakeTimers()
    fireEvent.click(btn)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    expect(api.callsTo('POST', '/tournament/register')[0].body).toEqual({ tournamentName: 'PPL7' })
    expect(screen.getByRole('heading', { name: 'Registration Successful!' })).toBeInTheDocument()
    expect(screen.getByTestId('countdown')).toHaveTextContent('6')
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000)
    })
    expect(screen.getByTestId('countdown')).toHaveTextContent('5')
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4000)
    })
    expect(screen.getByTestId('countdown')).toHaveTextContent('1')
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000)
    })
    expect(close).toHaveBeenCalled()
    // The Reg Player tab, where the player's own card is (highlighted and scrolled to there).
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/tournament\?tab=reg$/)
  })

  it('a registered player sees Unregister at once, and it asks before it acts', async () => {
    const api = mockApi({
      'GET /stats/get': { body: { success: true, stats: { kd: 1, games_played: 3, category: 1 } } },
      'POST /tournament/unregister': { body: { success: true, registered: false, message: 'You have been unregistered.' } },
      'GET /auth/profile': { body: { user: makeUser({ sk_stats_uploaded: true }) } },
    })
    setup(makeUser({ sk_stats_uploaded: true, tournament_registered: true }), { view: 'registered' })
    expect(await screen.findByRole('heading', { name: 'You are already registered!' })).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Unregister from PPL7' }))
    expect(screen.getByText('Unregister from PPL7?')).toBeInTheDocument()
    // The safe answer has the focus; taking it changes nothing.
    expect(screen.getByRole('button', { name: 'Keep my registration' })).toHaveFocus()
    fireEvent.click(screen.getByRole('button', { name: 'Keep my registration' }))
    expect(screen.queryByText('Unregister from PPL7?')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Unregister from PPL7' })).toHaveFocus()
    expect(api.callsTo('POST', '/tournament/unregister')).toHaveLength(0)

    fireEvent.click(screen.getByRole('button', { name: 'Unregister from PPL7' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, unregister' }))
    expect(await screen.findByText('You have been unregistered.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/tournament/unregister')[0].body).toEqual({ tournamentName: 'PPL7' })
    expect(screen.getByRole('button', { name: 'Register for PPL7' })).toBeInTheDocument()
  })

  it('unregistering from the stats card asks too, and shows a refusal from the server', async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: { kd: 1, games_played: 3, category: 1 } } },
      'POST /tournament/unregister': { status: 409, body: { message: 'Registration for PPL7 is closed.' } },
    })
    setup(makeUser({ sk_stats_uploaded: true, tournament_registered: true }))
    fireEvent.click(await screen.findByRole('button', { name: 'Upload New Stats' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Back to my stats card' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Unregister from PPL7' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, unregister' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration for PPL7 is closed.')
    expect(screen.getByRole('button', { name: 'Unregister from PPL7' })).toBeInTheDocument()
  })

  it('after signing in with pending stats: saves them, then registers automatically', async () => {
    const api = mockApi({
      'GET /stats/get': { body: { success: true, stats: null } },
      'POST /stats/save': { body: { success: true, stats: {} } },
      'POST /tournament/register': { body: { success: true, registered: true } },
      'GET /auth/profile': { body: { user: makeUser() } },
    })
    setup(makeUser(), { pending: { stats: extracted, category: 2, register: true } })
    expect(await screen.findByRole('heading', { name: 'Registration Successful!' })).toBeInTheDocument()
    expect(api.callsTo('POST', '/stats/save')[0].body).toMatchObject({ sk_id: 'SK-1', level: 42, kills: 300, deaths: 100, games_played: 150, kd: 3, category: 2, preferred_role: 'Player' })
    await waitFor(() => expect(api.callsTo('POST', '/tournament/register')).toHaveLength(1))
  })

  it("a failed save says 'Failed to save stats'", async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: null } },
      'POST /stats/save': { status: 500 },
    })
    setup(makeUser(), { pending: { stats: extracted, category: 2, register: true } })
    expect(await screen.findByText('Failed to save stats')).toBeInTheDocument()
  })

  // A real capture of the game's Stats tab: no name, no SK id, no games.
  const realPanel = statsTabAnswer()

  async function uploadAs(user: User | null, answer: object, saved?: boolean) {
    let gets = 0
    const api = mockApi({
      // Nothing saved when the view opens; then the category stored with the player's stats.
      'GET /stats/get': () => ({ body: { success: true, stats: gets++ === 0 ? null : { category: 3 } } }),
      'POST /stats/extract': { body: { success: true, stats: answer, ...(saved === undefined ? {} : { saved }) } },
      'POST /stats/save': (req) => ({ body: { success: true, stats: req.body } }),
      'GET /auth/profile': { body: { user } },
    })
    setup(user)
    const button = await screen.findByRole('button', { name: 'UPLOAD STATS' })
    choose(png())
    fireEvent.click(button)
    return api
  }

  it('a doubtful figure must be confirmed or corrected before saving, and the card is what the player approved', async () => {
    const doubtful = { kd: 'K/D 1.79 does not match kills / deaths', kills: 'K/D 1.79 does not match kills / deaths', deaths: 'K/D 1.79 does not match kills / deaths' }
    const api = await uploadAs(makeUser(), { ...realPanel, kills: '4797', doubtful }, false)
    expect(await screen.findByRole('heading', { name: 'Check your stats' })).toBeInTheDocument()
    const kills = screen.getByLabelText('Kills')
    expect(kills).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getAllByText(/Please check: K\/D 1.79 does not match kills \/ deaths/)).toHaveLength(2)

    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(await screen.findByText('Please confirm or correct the highlighted figures first.')).toBeInTheDocument()
    expect(api.callsTo('POST', '/stats/save')).toHaveLength(0)

    fireEvent.change(kills, { target: { value: '4791' } }) // corrected: confirmed by the player's word
    fireEvent.click(screen.getByRole('button', { name: 'Confirm deaths' }))
    expect(screen.getByText('1.79', { selector: 'strong' })).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))

    expect(await screen.findByRole('heading', { name: 'rider#1' })).toBeInTheDocument()
    const body = api.callsTo('POST', '/stats/save')[0].body
    expect(body).toMatchObject({ player_name: 'rider#1', kills: 4791, deaths: 2678, kd: 1.79, level: 24, games_played: 0, sk_id: 'N/A', category: 3 })
    const kd = screen.getByText('K/D ratio', { selector: 'dt' })
    expect(kd.nextElementSibling).toHaveTextContent('1.79')
  })

  it("the card's name falls back to the Discord username when the screenshot shows none", async () => {
    const api = await uploadAs(makeUser(), realPanel, true)
    expect(await screen.findByRole('heading', { name: 'Saved from your screenshot' })).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveValue('rider#1')
    expect(screen.getByText('From your Discord username')).toBeInTheDocument()
    expect(screen.getByText(/Wins 325 \(not games played\)/)).toBeInTheDocument()
    // The review is the save: one button, no second way out that keeps the gaps.
    expect(screen.queryByRole('button', { name: 'Keep as read' })).toBeNull()
    expect(screen.getByText(/did not show Games played: type it and save/)).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(await screen.findByRole('heading', { name: 'rider#1' })).toBeInTheDocument()
    expect(api.callsTo('POST', '/stats/save')).toHaveLength(1)
  })

  it('stats kept with Games played missing are asked for again when the view opens, and the save completes them', async () => {
    const kept = { level: 24, kills: 4791, deaths: 2678, games_played: 0, kd: 1.79, sk_id: 'N/A', category: 3 }
    const api = mockApi({
      'GET /stats/get': () => ({ body: { success: true, stats: api.callsTo('POST', '/stats/save').length ? { ...kept, games_played: 1500 } : kept } }),
      'POST /stats/save': (req) => ({ body: { success: true, stats: req.body } }),
    })
    const holdStep = vi.fn()
    const user = makeUser({ sk_stats_uploaded: true, stats_data: kept })
    renderApp(
      <RegisterFlow user={user} view="stats" requireAuth={vi.fn()} close={vi.fn()} holdStep={holdStep} pending={null} setPending={vi.fn()} />,
      { user, path: '/', queries: [[infoKey('PPL7'), makeTournamentInfo('registration')]] },
    )
    expect(await screen.findByRole('heading', { name: 'Saved from your screenshot' })).toBeInTheDocument()
    expect(screen.getByText(/Until your card has it, we ask again when you sign in/)).toBeInTheDocument()
    expect(holdStep).toHaveBeenLastCalledWith(3)
    const games = screen.getByLabelText('Games played')
    expect(games).toHaveValue('')
    expect(screen.getByLabelText('Kills')).toHaveValue('4791')
    fireEvent.change(games, { target: { value: '1500' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(await screen.findByRole('heading', { name: 'rider#1' })).toBeInTheDocument()
    expect(api.callsTo('POST', '/stats/save')[0].body).toMatchObject({ games_played: 1500, kills: 4791, level: 24, category: 3 })
    expect(holdStep).toHaveBeenLastCalledWith(null)
  })

  it('the player can type the figures the screenshot did not show', async () => {
    const api = await uploadAs(makeUser(), realPanel, true)
    const games = await screen.findByLabelText('Games played')
    expect(games).toHaveValue('')
    expect(games).toHaveAttribute('placeholder', 'Not on your screenshot')
    fireEvent.change(games, { target: { value: '1,5x00' } })
    expect(games).toHaveValue('1500')
    fireEvent.change(screen.getByLabelText('SK id'), { target: { value: '8123456' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    await screen.findByRole('heading', { name: 'rider#1' })
    expect(api.callsTo('POST', '/stats/save')[0].body).toMatchObject({ games_played: 1500, sk_id: '8123456', kills: 4791 })
  })

  it('after "Save my stats" the card shows what the server saved (its tier), not the reading', async () => {
    let gets = 0
    const api = mockApi({
      // The tier kept with the player's earlier stats is 4; the server works out 3 from the new figures.
      'GET /stats/get': () => ({ body: { success: true, stats: gets++ === 0 ? null : { category: 4 } } }),
      'POST /stats/extract': { body: { success: true, stats: realPanel, saved: true } },
      'POST /stats/save': (req) => ({ body: { success: true, stats: { ...(req.body as object), kd: 1.79, category: 3 } } }),
      'GET /auth/profile': { body: { user: makeUser() } },
    })
    setup(makeUser())
    const button = await screen.findByRole('button', { name: 'UPLOAD STATS' })
    choose(png())
    fireEvent.click(button)
    const games = await screen.findByLabelText('Games played')
    fireEvent.change(games, { target: { value: '1500' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    await screen.findByRole('heading', { name: 'rider#1' })
    expect(api.callsTo('POST', '/stats/save')[0].body).toMatchObject({ category: 4 })
    expect(screen.getByText('Tier', { selector: 'dt' }).nextElementSibling).toHaveTextContent('3')
  })

  it('signed in after choosing stats: the card is what the save answered', async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: null } },
      'POST /stats/save': (req) => ({ body: { success: true, stats: { ...(req.body as object), category: 1 } } }),
      'GET /auth/profile': { body: { user: makeUser() } },
    })
    setup(makeUser(), { pending: { stats: extracted, category: 4, register: false } })
    await screen.findByRole('heading', { name: 'Zoom' })
    await waitFor(() => expect(screen.getByText('Tier', { selector: 'dt' }).nextElementSibling).toHaveTextContent('1'))
  })

  it('a capture of the Player tab fills the name and the SK id', async () => {
    let calls = 0
    mockApi({
      'POST /stats/extract': () => {
        calls++
        return calls === 1
          ? { body: { success: true, stats: realPanel } }
          : { body: { success: true, stats: { ...realPanel, discord_username: 'TurboKing', sk_id: '4455667', missing: ['level', 'kills', 'deaths', 'games'] } } }
      },
    })
    setup(null)
    choose(png())
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    const tab = await screen.findByLabelText(/Player tab screenshot/)
    fireEvent.change(tab, { target: { files: [png()] } })
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('TurboKing'))
    expect(screen.getByLabelText('SK id')).toHaveValue('4455667')
    expect(screen.getByLabelText('Kills')).toHaveValue('4791') // the Stats tab's figures stay
    fireEvent.click(screen.getByRole('button', { name: 'Use these stats' }))
    expect(await screen.findByRole('heading', { name: 'TurboKing' })).toBeInTheDocument()
    expect(screen.getByText(MSG.loginToSave)).toBeInTheDocument()
  })
})
