import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderApp } from '@/testing/render'
import { SeasonPicker } from './season-picker'

const seasons = (...names: string[]) => ({
  body: { tournaments: names.map((name, i) => ({ name, display_name: name === 'PPL7' ? 'PPLS-6.0' : name, status: i ? 'completed' : 'matches', season: 7 - i })) },
})

describe('the season picker', () => {
  // The page's head keeps its height from the first render: the picker is there before the list
  // of seasons comes, so nothing below it moves when the list arrives.
  it('holds the shown season, disabled, while the list of seasons loads', () => {
    mockApi({ 'GET /tournaments': () => new Promise(() => undefined) })
    renderApp(<SeasonPicker value="PPL7" onChange={() => undefined} />)
    const picker = screen.getByLabelText('Season') as HTMLSelectElement
    expect(picker).toBeDisabled()
    expect(picker.value).toBe('PPL7')
  })

  it('lets the visitor pick a past season once the list has come, each by the name it goes by', async () => {
    mockApi({ 'GET /tournaments': seasons('PPL7', 'PPL6') })
    renderApp(<SeasonPicker value="PPL7" onChange={() => undefined} />)
    await waitFor(() => expect(screen.getByLabelText('Season')).toBeEnabled())
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['PPLS-6.0', 'PPL6 (completed)'])
  })

  it('stays, disabled, in a league with one season', async () => {
    const api = mockApi({ 'GET /tournaments': seasons('PPL7') })
    renderApp(<SeasonPicker value="PPL7" onChange={() => undefined} />)
    await waitFor(() => expect(api.callsTo('GET', '/tournaments')).toHaveLength(1))
    await screen.findByRole('option', { name: 'PPLS-6.0' })
    expect(screen.getByLabelText('Season')).toBeDisabled()
  })
})
