import { describe, expect, it } from 'vitest'
import { createNoticeInbox, type Notice } from './notice-inbox'

const notice = (tag: string): Notice => ({ title: `Match ${tag}`, body: 'reported', url: '/matches/1', tag })
const post = (source: EventTarget, data: unknown) => source.dispatchEvent(new MessageEvent('message', { data }))

describe('the notice inbox', () => {
  it('keeps the notices that arrive before the toasts load and hands them over in order', () => {
    const sw = new EventTarget()
    const inbox = createNoticeInbox(sw)
    post(sw, { type: 'pitlane:notice', notice: notice('a') })
    post(sw, { type: 'pitlane:notice', notice: notice('b') })
    const shown: string[] = []
    inbox.subscribe((n) => shown.push(n.tag))
    expect(shown).toEqual(['a', 'b'])
    post(sw, { type: 'pitlane:notice', notice: notice('c') })
    expect(shown).toEqual(['a', 'b', 'c'])
  })

  it('ignores other messages, and keeps what comes after an unsubscribe for the next subscriber', () => {
    const sw = new EventTarget()
    const inbox = createNoticeInbox(sw)
    post(sw, { type: 'other' })
    post(sw, { type: 'pitlane:notice', notice: notice('a') })
    const first: string[] = []
    const stop = inbox.subscribe((n) => first.push(n.tag))
    stop()
    post(sw, { type: 'pitlane:notice', notice: notice('b') })
    const second: string[] = []
    inbox.subscribe((n) => second.push(n.tag))
    expect(first).toEqual(['a'])
    expect(second).toEqual(['b'])
  })

  it('keeps only the newest few while nobody listens', () => {
    const sw = new EventTarget()
    const inbox = createNoticeInbox(sw)
    for (let i = 0; i < 8; i++) post(sw, { type: 'pitlane:notice', notice: notice(String(i)) })
    const shown: string[] = []
    inbox.subscribe((n) => shown.push(n.tag))
    expect(shown).toEqual(['3', '4', '5', '6', '7'])
  })
})
