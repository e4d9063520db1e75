import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { RegisterFlow } from '@/app/flows/register-flow'
import { LiveProvider } from '@/lib/live'
import { LiveClient } from '@/lib/live-client'
import { makeUser } from '@/testing/fixtures'
import { mockApi, type MockReply } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { READER_REFUSED } from '@/features/stats/lib/stats-model'

const progress = (seq: number, data: object) => JSON.stringify({ type: 'event', topic: 'user', seq, event: 'stats.progress', data })
const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'stats.png', { type: 'image/png' })

describe('a screenshot the reader refuses', () => {
  it('ends the live progress with the server’s message, then gives the form to type the stats', async () => {
    let answer: (r: MockReply) => void = () => undefined
    const api = mockApi({
      'GET /stats/get': { body: { success: true, stats: null } },
      'POST /stats/extract': () => new Promise<MockReply>((resolve) => (answer = resolve)),
      'POST /stats/save': (req) => ({ body: { success: true, stats: req.body } }),
    })
    const client = new LiveClient()
    const user = makeUser()
    renderApp(
      <LiveProvider enabled={false} client={client}>
        <RegisterFlow user={user} view="stats" requireAuth={() => undefined} close={() => undefined} pending={null} setPending={() => undefined} />
      </LiveProvider>,
      { user },
    )
    const button = await screen.findByRole('button', { name: 'UPLOAD STATS' })
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    fireEvent.change(input, { target: { files: [png()] } })
    fireEvent.click(button)
    await waitFor(() => expect(api.callsTo('POST', '/stats/extract')).toHaveLength(1))

    // The server tells the socket first, then answers the upload.
    act(() => client.handleFrame(progress(1, { stage: 'received' })))
    expect(screen.getByText('Screenshot received')).toHaveAttribute('aria-current', 'step')
    act(() => client.handleFrame(progress(2, { stage: 'failed', message: READER_REFUSED })))
    expect(screen.getByRole('list', { name: 'Upload progress' })).toHaveTextContent(READER_REFUSED)
    expect(screen.queryByText('The reader could not finish')).not.toBeInTheDocument()

    act(() => answer({ status: 422, body: { message: READER_REFUSED } }))
    expect(await screen.findByRole('heading', { name: 'Enter your stats' })).toBeInTheDocument()
    expect(screen.getByText(READER_REFUSED)).toHaveClass('msg-info')
    // Not the seed's "try again with a clearer screenshot": the player types the figures.
    expect(screen.queryByText(/clearer screenshot/)).not.toBeInTheDocument()
    for (const label of ['Level', 'Kills', 'Deaths', 'Games played', 'SK id']) expect(screen.getByLabelText(label)).toHaveValue('')
    expect(screen.getByLabelText('Name')).toHaveValue('rider#1')

    fireEvent.change(screen.getByLabelText('Level'), { target: { value: '57' } })
    fireEvent.change(screen.getByLabelText('Kills'), { target: { value: '4791' } })
    fireEvent.change(screen.getByLabelText('Deaths'), { target: { value: '2678' } })
    fireEvent.change(screen.getByLabelText('Games played'), { target: { value: '1500' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    await waitFor(() => expect(api.callsTo('POST', '/stats/save')).toHaveLength(1))
    expect(api.callsTo('POST', '/stats/save')[0].body).toMatchObject({ level: 57, kills: 4791, deaths: 2678, games_played: 1500, kd: 1.79 })
  })

  it('other refusals keep their message and the clearer-screenshot alert', async () => {
    mockApi({
      'GET /stats/get': { body: { success: true, stats: null } },
      'POST /stats/extract': { status: 422, body: { message: 'Image is damaged or incomplete' } },
    })
    renderApp(<RegisterFlow user={null} view="stats" requireAuth={() => undefined} close={() => undefined} pending={null} setPending={() => undefined} />)
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    fireEvent.change(input, { target: { files: [png()] } })
    fireEvent.click(screen.getByRole('button', { name: 'UPLOAD STATS' }))
    expect(await screen.findByText('Image is damaged or incomplete')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Enter your stats' })).not.toBeInTheDocument()
  })
})
