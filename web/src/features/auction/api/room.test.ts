import { describe, expect, it } from 'vitest'
import type { RoomMessage } from '../types'
import { addMessage, roomTopic } from './room'

const msg = (id: number): RoomMessage => ({ id, author: 'Cap', user_id: 1, role: 'captain', team: 'A', text: `hi ${id}`, at: '2026-01-01T12:00:00Z' })

describe('captains room', () => {
  it('adds a message once, whether it comes back from the POST or the live event first', () => {
    let v = { tournament: 'PPL7', seq: 3, messages: [msg(1)] }
    v = addMessage(v, msg(2))
    v = addMessage(v, msg(2), 4)
    expect(v.messages.map((m) => m.id)).toEqual([1, 2])
    expect(v.seq).toBe(4)
  })

  it('follows the room of its own tournament: one topic a season', () => {
    expect(roomTopic('PPL7')).toBe('captains:PPL7')
    expect(roomTopic('PPL8')).not.toBe(roomTopic('PPL7'))
  })
})
