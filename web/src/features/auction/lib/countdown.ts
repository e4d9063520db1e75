// Countdowns to the server's deadlines on a client whose clock may be off: the offset between the
// two clocks is estimated from the server's `now` (taken at the middle of the request) and kept at
// least as late as any event's timestamp, which the server cannot have sent from the future.

/** Server clock minus client clock, in ms, from a response read between `sentAt` and `receivedAt`. */
export function clockOffset(serverNow: string, sentAt: number, receivedAt: number): number {
  const server = Date.parse(serverNow)
  if (!Number.isFinite(server)) return 0
  return Math.round(server - (sentAt + receivedAt) / 2)
}

/** An event stamped `ts` by the server arrived at `receivedAt`: the server's clock is at least that. */
export function raiseOffset(offset: number, ts: string | undefined, receivedAt: number): number {
  const server = ts ? Date.parse(ts) : NaN
  if (!Number.isFinite(server)) return offset
  return Math.max(offset, server - receivedAt)
}

/** Whole seconds left until `endsAt` (server time), never below zero. */
export function secondsLeft(endsAt: string | null | undefined, clientNow: number, offset: number): number {
  const end = endsAt ? Date.parse(endsAt) : NaN
  if (!Number.isFinite(end)) return 0
  return Math.max(0, Math.ceil((end - (clientNow + offset)) / 1000))
}

/** "0:09", "1:05". */
export function formatSeconds(s: number): string {
  const v = Math.max(0, Math.floor(s))
  return `${Math.floor(v / 60)}:${String(v % 60).padStart(2, '0')}`
}
