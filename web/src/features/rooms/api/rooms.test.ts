import { describe, expect, it } from 'vitest'
import { dropMessage, upsertMessage, type ChatMessage, type RoomPage } from './rooms'

const msg = (id: number, text = `hi ${id}`): ChatMessage => ({ id, room_id: 7, user_id: 1, author: 'Cap', text, at: '2026-01-01T12:00:00Z', edited_at: null })
const page = (...ids: number[]): RoomPage => ({
  room: { id: 7, kind: 'team', tournament: 'PPL7', title: 'Team A', team: 'A', slow_seconds: 0, unread: 0, last_at: null },
  seq: 3,
  messages: ids.map((id) => msg(id)),
})

describe('team room', () => {
  it('shows a message once, whether the POST answer or the live event comes first', () => {
    let p = upsertMessage(page(1), msg(2))
    p = upsertMessage(p, msg(2), 4)
    expect(p.messages.map((m) => m.id)).toEqual([1, 2])
    expect(p.seq).toBe(4)
  })

  it('replaces an edited message in its place', () => {
    const p = upsertMessage(page(1, 2, 3), { ...msg(2, 'lineup at 9'), edited_at: '2026-01-01T12:01:00Z' }, 5)
    expect(p.messages.map((m) => m.text)).toEqual(['hi 1', 'lineup at 9', 'hi 3'])
  })

  it('takes a deleted message out', () => {
    expect(dropMessage(page(1, 2), 1, 6).messages.map((m) => m.id)).toEqual([2])
  })
})
