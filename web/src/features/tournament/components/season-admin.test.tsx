import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { LiveEvent } from '@/lib/live-client'
import { makeUser } from '@/testing/fixtures'
import { makeTournamentInfo } from '@/testing/league-fixtures'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { applySeasonEvent } from '../api/registrations'
import { SeasonAdmin } from './season-admin'

const info = makeTournamentInfo('matches')

const organiser = makeUser({ role: 'admin' })
const card = () => screen.getByRole('region', { name: 'Season' })

describe("a season's identity, live", () => {
  const ev = (data: unknown): LiveEvent => ({ type: 'event', topic: 'registrations', seq: 3, event: 'tournament.updated', data })

  it('tournament.updated sets the identity it carries, of its own season only', () => {
    const next = applySeasonEvent(info, ev({ tournament: 'PPL7', display_name: 'Winter Cup', hero: 'Winter Cup is on', hero_default: true, banner_url: '/api/images/x' }))
    expect(next).toEqual({ ...info, display_name: 'Winter Cup', hero: 'Winter Cup is on', hero_default: true, banner_url: '/api/images/x' })
    expect(applySeasonEvent(info, ev({ tournament: 'PPL8', display_name: 'Other' }))).toBe(info)
  })
})

describe("/admin's Season card", () => {
  it('sends the season as the organiser leaves it, and shows what the server answers', async () => {
    const api = mockApi({
      'GET /tournament/info': { body: info },
      'PUT /admin/tournaments/PPL7': (req) => ({ body: { ...info, ...(req.body as object), hero_default: false } }),
    })
    renderApp(<SeasonAdmin tournament="PPL7" />, { user: organiser })
    const name = await screen.findByLabelText('Display name')
    expect(name).toHaveValue('PPLS-6.0')
    expect(screen.getByLabelText('Hero line')).toHaveValue('PPLS-6.0 is back')
    fireEvent.change(name, { target: { value: 'PPL Winter Cup' } })
    fireEvent.change(screen.getByLabelText('Hero line'), { target: { value: '' } })
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '2026-12-01' } })
    fireEvent.click(within(card()).getByRole('button', { name: 'Save season' }))
    await waitFor(() => expect(api.callsTo('PUT', '/admin/tournaments/PPL7')).toHaveLength(1))
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7')[0].body).toEqual({
      display_name: 'PPL Winter Cup',
      hero: '',
      description: '',
      starts_at: '2026-12-01',
      ends_at: null,
    })
    expect(await within(card()).findByText('from 1 Dec 2026')).toBeInTheDocument()
  })

  it('a default hero line is left empty, with the default as its placeholder', async () => {
    mockApi({ 'GET /tournament/info': { body: { ...info, display_name: 'PPL8', hero: 'PPL8 is on', hero_default: true } } })
    renderApp(<SeasonAdmin tournament="PPL7" />, { user: organiser })
    const hero = await screen.findByLabelText('Hero line')
    expect(hero).toHaveValue('')
    expect(hero).toHaveAttribute('placeholder', 'PPL8 is on')
  })

  it('refuses an empty name or an end before the start without asking the server', async () => {
    const api = mockApi({ 'GET /tournament/info': { body: info } })
    renderApp(<SeasonAdmin tournament="PPL7" />, { user: organiser })
    fireEvent.change(await screen.findByLabelText('Display name'), { target: { value: '  ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save season' }))
    expect(await screen.findByText("A season's display name is 1 to 40 characters.")).toBeInTheDocument()
    fireEvent.change(screen.getByLabelText('Display name'), { target: { value: 'Winter' } })
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '2026-12-10' } })
    fireEvent.change(screen.getByLabelText('Ends'), { target: { value: '2026-12-01' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save season' }))
    expect(await screen.findByText('The season cannot end before it starts.')).toBeInTheDocument()
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7')).toHaveLength(0)
  })

  it("shows the server's refusal in its own words", async () => {
    mockApi({
      'GET /tournament/info': { body: info },
      'PUT /admin/tournaments/PPL7': { status: 400, body: { message: 'The hero line may not contain control or formatting characters.' } },
    })
    renderApp(<SeasonAdmin tournament="PPL7" />, { user: organiser })
    fireEvent.click(await screen.findByRole('button', { name: 'Save season' }))
    expect(await screen.findByText('The hero line may not contain control or formatting characters.')).toBeInTheDocument()
  })

  it('uploads a banner, previews it, and takes it away', async () => {
    let banner: string | null = null
    const api = mockApi({
      'GET /tournament/info': () => ({ body: { ...info, banner_url: banner } }),
      'PUT /admin/tournaments/PPL7/banner': () => ((banner = '/api/images/abc'), { body: { ...info, banner_url: banner } }),
      'DELETE /admin/tournaments/PPL7/banner': () => ((banner = null), { body: { ...info, banner_url: null } }),
    })
    renderApp(<SeasonAdmin tournament="PPL7" />, { user: organiser })
    expect(await screen.findByText(/No banner/)).toBeInTheDocument()
    const upload = screen.getByRole('button', { name: 'Upload banner' })
    expect(upload).toBeDisabled()
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'banner.png', { type: 'image/png' })
    fireEvent.change(screen.getByLabelText('Image (PNG, JPEG or WebP, at most 8 MB)'), { target: { files: [file] } })
    fireEvent.click(upload)
    expect(await screen.findByRole('img', { name: "PPLS-6.0's banner" })).toHaveAttribute('src', '/api/images/abc')
    const sent = api.callsTo('PUT', '/admin/tournaments/PPL7/banner')[0].body
    expect(sent).toBeInstanceOf(FormData)
    expect((sent as FormData).get('banner')).toBeInstanceOf(File)
    fireEvent.click(screen.getByRole('button', { name: 'Remove banner' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, remove it' }))
    expect(await screen.findByText(/No banner/)).toBeInTheDocument()
    expect(api.callsTo('DELETE', '/admin/tournaments/PPL7/banner')).toHaveLength(1)
  })

  it('refuses an image over 8 MB before sending it', async () => {
    const api = mockApi({ 'GET /tournament/info': { body: info } })
    renderApp(<SeasonAdmin tournament="PPL7" />, { user: organiser })
    const big = new File(['x'], 'big.png', { type: 'image/png' })
    Object.defineProperty(big, 'size', { value: 9 << 20 })
    fireEvent.change(await screen.findByLabelText('Image (PNG, JPEG or WebP, at most 8 MB)'), { target: { files: [big] } })
    expect(await screen.findByText('Image is larger than 8 MB')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Upload banner' })).toBeDisabled()
    expect(api.callsTo('PUT', '/admin/tournaments/PPL7/banner')).toHaveLength(0)
  })
})
