// A fetch stand-in for component tests: routes keyed "METHOD /path" (without /api).
import { vi } from 'vitest'

export type MockRequest = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Record<string, string> }
export type MockReply = { status?: number; body?: unknown; headers?: Record<string, string> }
export type MockRoute = MockReply | ((req: MockRequest) => MockReply | Promise<MockReply>)

export function mockApi(routes: Record<string, MockRoute>) {
  const calls: MockRequest[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost')
    const method = (init.method ?? 'GET').toUpperCase()
    const path = url.pathname.replace(/^\/api/, '')
    let body: unknown = init.body
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body)
      } catch {
        /* keep text */
      }
    }
    const req: MockRequest = { method, path, query: url.searchParams, body, headers: (init.headers ?? {}) as Record<string, string> }
    calls.push(req)
    const route = routes[`${method} ${path}`]
    if (!route) return new Response(JSON.stringify({ message: `no mock for ${method} ${path}` }), { status: 404 })
    const reply = typeof route === 'function' ? await route(req) : route
    const status = reply.status ?? 200
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...(reply.headers ?? {}) },
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) }
}
