import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useGrowingWindow } from './use-growing-window'

function List({ total, reset = '', atLeast = 0 }: { total: number; reset?: string; atLeast?: number }) {
  const w = useGrowingWindow(total, { step: 10, reset, atLeast })
  return (
    <>
      <ul>
        {Array.from({ length: w.shown }, (_, i) => (
          <li key={i}>row {i}</li>
        ))}
      </ul>
      {w.more ? (
        <button type="button" onClick={w.showMore}>
          more
        </button>
      ) : null}
    </>
  )
}

describe('a list shown a window at a time', () => {
  it('renders the first window, then more on demand, up to the whole list', () => {
    render(<List total={25} />)
    expect(screen.getAllByRole('listitem')).toHaveLength(10)
    act(() => screen.getByRole('button').click())
    expect(screen.getAllByRole('listitem')).toHaveLength(20)
    act(() => screen.getByRole('button').click())
    expect(screen.getAllByRole('listitem')).toHaveLength(25)
    expect(screen.queryByRole('button')).toBeNull()
  })
  it('starts over on a new search', () => {
    const { rerender } = render(<List total={50} reset="a" />)
    act(() => screen.getByRole('button').click())
    expect(screen.getAllByRole('listitem')).toHaveLength(20)
    rerender(<List total={50} reset="b" />)
    expect(screen.getAllByRole('listitem')).toHaveLength(10)
  })
  it('widens to a row that must be shown', () => {
    render(<List total={50} atLeast={33} />)
    expect(screen.getAllByRole('listitem')).toHaveLength(33)
  })
})
