import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { statsTabAnswer } from '@/testing/fixtures'
import { StatsReview } from './stats-review'

function review(over: Parameters<typeof statsTabAnswer>[0]) {
  const onSubmit = vi.fn()
  render(<StatsReview stats={statsTabAnswer(over)} fallbackName="rider#1" saved={false} busy={false} submitLabel="Save my stats" onSubmit={onSubmit} />)
  return onSubmit
}

describe('reviewing figures the screen did not show', () => {
  it('a count worked out from the others is shown, flagged, and kept only once confirmed', () => {
    const onSubmit = review({ kills: '4794', proposed: ['kills'], doubtful: { kills: 'worked out from K/D × deaths: please check' } })
    const kills = screen.getByLabelText('Kills')
    expect(kills).toHaveValue('4794')
    expect(kills).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByText('Worked out from K/D × deaths: please check')).toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(screen.getByText('Please confirm or correct the highlighted figures first.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: 'Confirm kills' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ kills: '4794', deaths: '2678' }))
  })

  it('a K/D worked out from kills and deaths is confirmed on its own line, not on kills and deaths', () => {
    const onSubmit = review({ proposed: ['kd'], doubtful: { kd: 'worked out from kills ÷ deaths: please check' } })
    expect(screen.getByLabelText('Kills')).not.toHaveAttribute('aria-invalid')
    expect(screen.getByText('K/D: Worked out from kills ÷ deaths: please check')).toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(onSubmit).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: 'Confirm K/D' }))
    expect(screen.getByText('✓ Confirmed')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Save my stats' }))
    expect(onSubmit).toHaveBeenCalled()
  })
})
