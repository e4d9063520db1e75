// Starts the real Go server binary (`pitlane serve`) on a free port for a browser test.
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { randomBytes } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
export const webDir = resolve(here, '..', '..')
export const tmpDir = join(webDir, 'e2e', '.tmp')

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer()
    s.once('error', rej)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => res(port))
    })
  })
}

export function binaryPath() {
  return resolve(webDir, process.env.PITLANE_BIN ?? '../bin/pitlane')
}

/**
 * `host`: the name pages open the site by (default 127.0.0.1). Passkeys need a domain, not an address:
 * with host 'localhost' the site's PUBLIC_URL is http://localhost:PORT, its WebAuthn relying party.
 * `port`: the port to listen on (default a free one).
 */
export async function startServer({ databaseUrl, smtpUrl, adminEmails = '', extraEnv = {}, host = '127.0.0.1', port: wanted }) {
  const bin = binaryPath()
  if (!existsSync(bin)) throw new Error(`server binary not found: ${bin} (build it, or set PITLANE_BIN)`)
  mkdirSync(tmpDir, { recursive: true })
  const port = wanted ?? (await freePort())
  const dataDir = join(tmpDir, `data-${port}`)
  mkdirSync(dataDir, { recursive: true })
  const log = createWriteStream(join(tmpDir, `server-${port}.log`))
  const child = spawn(bin, ['serve'], {
    cwd: resolve(webDir, '..'),
    env: {
      ...process.env,
      ADDR: `127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'Pitlane E2E <e2e@localhost>',
      ADMIN_EMAILS: adminEmails,
      JWT_SECRET: randomBytes(32).toString('hex'),
      PITLANE_DATA_DIR: dataDir,
      GEMINI_API_KEY: '',
      GOOGLE_CLIENT_ID: '',
      REDIS_URL: process.env.E2E_REDIS_URL ?? '',
      // a run's own keys and channel: a `make run` on the same Redis sees none of its events
      REDIS_PREFIX: process.env.E2E_REDIS_PREFIX ?? `pitlane-e2e-${process.pid}:`,
      RATE_LIMIT_SCALE: '50',
      ...(host === '127.0.0.1' ? {} : { PUBLIC_URL: `http://${host}:${port}` }),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.pipe(log)
  child.stderr.pipe(log)
  let exited = null
  child.on('exit', (code, signal) => {
    exited = { code, signal }
  })

  const base = `http://${host}:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (exited) throw new Error(`server exited early (${JSON.stringify(exited)}); see ${log.path}`)
    try {
      const res = await fetch(`${base}/healthz`)
      if (res.ok) break
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server not healthy within 60 s; see ${log.path}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }

  return {
    base,
    port,
    logPath: log.path,
    async stop() {
      if (exited) return
      child.kill('SIGTERM')
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 10_000))])
      if (!exited) child.kill('SIGKILL')
    },
  }
}

/** JSON call to the server's API (for the admin account the deck test needs). */
export async function apiCall(base, method, path, body, token) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let data
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    data = text
  }
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`)
  return data
}

/** A new account, made as a player makes one: signed up, the OTP read from smtp's mail, verified. */
export async function signUp(base, smtp, { email, password, discord }) {
  const since = smtp.mails.length
  await apiCall(base, 'POST', '/auth/signup', { email, password, confirmPassword: password, discordUsername: discord })
  const otp = await smtp.otpFor(email, { since })
  await apiCall(base, 'POST', '/auth/verify-otp', { email, otp, password })
}
