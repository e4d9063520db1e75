import { act, render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useFirstDeferred } from './use-first-deferred'

describe('useFirstDeferred', () => {
  it('renders the first value in a second, background render, and every later one at once', async () => {
    const rendered: string[] = []
    function Shown({ value }: { value?: string }) {
      const shown = useFirstDeferred(value)
      rendered.push(shown ?? 'waiting')
      return <output>{shown ?? 'waiting'}</output>
    }
    const { rerender } = render(<Shown />)
    await act(async () => rerender(<Shown value="first" />))
    // The render the new value caused still shows the wait; the background one shows the value
    // (React may run that one twice, as it settles).
    expect(rendered.slice(0, 2)).toEqual(['waiting', 'waiting'])
    expect(rendered.slice(2)).toContain('first')
    expect(rendered.slice(2).every((r) => r === 'first')).toBe(true)
    rendered.length = 0
    await act(async () => rerender(<Shown value="second" />))
    expect(rendered).toEqual(['second'])
  })
})
