import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { StatsCard } from './stats-card'

const stats = { name: 'Muttley', kd: '2.07', games: 0, level: 39, category: 2, kills: 66666, deaths: 32278, skid: '', cartImage: null }

const value = (label: string) => within(screen.getByText(label).closest('.stat') as HTMLElement).getByRole('definition')

describe('the stats card', () => {
  it('shows games the screenshot did not show as unknown, not as none', () => {
    render(<StatsCard stats={stats} />)
    expect(value('Games played')).toHaveTextContent('—')
    expect(value('Kills')).toHaveTextContent('66666')
  })
  it('shows the games when they were read', () => {
    render(<StatsCard stats={{ ...stats, games: 3205 }} />)
    expect(value('Games played')).toHaveTextContent('3205')
  })
})
