// The one HTTP client: same-origin /api, bearer token from localStorage, JSON in and out,
// `{"message": ..., "problems"?: [...]}` errors turned into ApiError, and a 401 with a token drops the session.

export const TOKEN_KEY = 'token'
export const TOKEN_EVENT = 'pitlane:token'

export const tokenStore = {
  get(): string | null {
    try {
      return window.localStorage.getItem(TOKEN_KEY)
    } catch {
      return null
    }
  },
  set(token: string) {
    try {
      window.localStorage.setItem(TOKEN_KEY, token)
    } finally {
      window.dispatchEvent(new Event(TOKEN_EVENT))
    }
  },
  clear() {
    try {
      window.localStorage.removeItem(TOKEN_KEY)
    } finally {
      window.dispatchEvent(new Event(TOKEN_EVENT))
    }
  },
}

export class ApiError extends Error {
  readonly status: number
  /** The server's own message, when it sent one. */
  readonly serverMessage: string | null
  /** Seconds from a 429's Retry-After header. */
  readonly retryAfter: number | null
  /** The things in the way, one sentence each, when the server listed several (`problems`). */
  readonly problems: string[]

  constructor(status: number, serverMessage: string | null, retryAfter: number | null = null, problems: string[] = []) {
    super(serverMessage || 'Request failed')
    this.name = 'ApiError'
    this.status = status
    this.serverMessage = serverMessage
    this.retryAfter = retryAfter
    this.problems = problems
  }
}

/** The problems a failed call listed (a phase move's empty slots), none for any other failure. */
export function errorProblems(err: unknown): string[] {
  return err instanceof ApiError ? err.problems : []
}

/** The text to show for a failed call: the server's message, else "Request failed" (docs/site.md). */
export function errorMessage(err: unknown, fallback = 'Request failed'): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage
  return fallback
}

// Paths whose 401 means "wrong credentials", not "your session expired" (change-password answers
// 401 for a wrong current password; the form then checks the session itself).
const CREDENTIAL_PATHS = ['/auth/login', '/auth/google-login', '/auth/signup', '/auth/verify-otp', '/auth/change-password', '/auth/password-reset/confirm']

let onUnauthorized: () => void = () => tokenStore.clear()
/** lib/auth sets this so an expired session also clears the cached user. */
export function setUnauthorizedHandler(fn: () => void) {
  onUnauthorized = fn
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  form?: FormData
  signal?: AbortSignal
  /** Send the stored token (default true). */
  auth?: boolean
}

/** The URL of an API path (`/tournaments/PPL7` → `/api/tournaments/PPL7`): what `request` fetches. */
export const apiUrl = (path: string) => `/api${path}`

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, form, signal, auth = true } = options
  const headers: Record<string, string> = { Accept: 'application/json' }
  const token = auth ? tokenStore.get() : null
  if (token) headers.Authorization = `Bearer ${token}`
  let payload: BodyInit | undefined
  if (form) {
    payload = form
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }

  let res: Response
  try {
    res = await fetch(apiUrl(path), { method, headers, body: payload, signal })
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err
    throw new ApiError(0, null)
  }

  const text = await res.text()
  let data: unknown = null
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = null
    }
  }
  if (!res.ok) {
    const msg =
      data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
        ? ((data as { message: string }).message || null)
        : null
    const retry = Number(res.headers.get('Retry-After'))
    if (res.status === 401 && token && !CREDENTIAL_PATHS.some((p) => path.startsWith(p))) {
      onUnauthorized()
    }
    const listed = data && typeof data === 'object' ? (data as { problems?: unknown }).problems : undefined
    const problems = Array.isArray(listed) ? listed.filter((p): p is string => typeof p === 'string') : []
    throw new ApiError(res.status, msg, Number.isFinite(retry) && retry > 0 ? retry : null, problems)
  }
  return data as T
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal }),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body: unknown) => request<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
  upload: <T>(path: string, form: FormData, signal?: AbortSignal) =>
    request<T>(path, { method: 'POST', form, signal }),
}
