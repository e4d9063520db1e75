import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import type { TabKey } from '../lib/tabs'
import { TournamentTabs } from './tournament-tabs'

function Harness() {
  const [tab, setTab] = useState<TabKey>('description')
  return <TournamentTabs active={tab} onChange={setTab} renderPanel={(k) => <p>panel {k}</p>} />
}

describe('TournamentTabs', () => {
  it('shows the eight labels and the active panel', () => {
    render(<Harness />)
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Description',
      'Category',
      'Teams',
      'Reg Player',
      'Bracket',
      'Points Table',
      'Red Cap',
      'Prizes',
    ])
    expect(screen.getByRole('tabpanel')).toHaveTextContent('panel description')
  })

  it('slides right to a later tab and left to an earlier one', () => {
    render(<Harness />)
    fireEvent.click(screen.getByRole('tab', { name: 'Reg Player' }))
    expect(screen.getByRole('tabpanel')).toHaveAttribute('data-direction', 'right')
    expect(screen.getByRole('tabpanel')).toHaveClass('slide-from-right')
    fireEvent.click(screen.getByRole('tab', { name: 'Category' }))
    expect(screen.getByRole('tabpanel')).toHaveAttribute('data-direction', 'left')
    expect(screen.getByRole('tabpanel')).toHaveTextContent('panel category')
    expect(screen.getByRole('tab', { name: 'Category' })).toHaveAttribute('aria-selected', 'true')
  })

  it('shows a pressed state while the pointer is down', () => {
    render(<Harness />)
    const teams = screen.getByRole('tab', { name: 'Teams' })
    fireEvent.pointerDown(teams)
    expect(teams).toHaveClass('is-pressed')
    fireEvent.pointerUp(teams)
    expect(teams).not.toHaveClass('is-pressed')
  })

  it('moves with the arrow keys', () => {
    render(<Harness />)
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Description' }), { key: 'ArrowLeft' })
    expect(screen.getByRole('tab', { name: 'Prizes' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel')).toHaveAttribute('data-direction', 'right')
  })
})
