import { describe, expect, it } from 'vitest'
import type { RoomMessage } from '../types'
import { addMessage } from './room'

const msg = (id: number): RoomMessage => ({ id, author: 'Cap', user_id: 1, role: 'captain', team: 'A', text: `hi ${id}`, at: '2026-01-01T12:00:00Z' })

describe('captains room', () => {
  it('adds a message once, whether it comes back from the POST or the live event first', () => {
    let v = { tournament: 'PPL7', seq: 3, messages: [msg(1)] }
    v = addMessage(v, msg(2))
    v = addMessage(v, msg(2), 4)
    expect(v.messages.map((m) => m.id)).toEqual([1, 2])
    expect(v.seq).toBe(4)
  })
})
