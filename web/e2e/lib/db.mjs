// A database of a test file's own on E2E_DATABASE_URL's server, loaded by the real binary's
// `seed-demo` at a phase, and how to drop it.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { binaryPath, webDir } from './server.mjs'

export function psql(url, sql) {
  const r = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url, '-c', sql], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`psql: ${r.stderr || r.error}`)
}

/**
 * `prefix`: the file's part of the database's name; `password`: the organiser's and captains' (with
 * `playersSignIn`, every player's too); `seasons`: the league's history, past seasons played first.
 */
export function seededDatabase(adminUrl, prefix, phase, password, { playersSignIn = false, seasons = 1 } = {}) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  psql(adminUrl, `CREATE DATABASE ${name}`)
  const drop = () => psql(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  const r = spawnSync(binaryPath(), ['seed-demo', '-phase', phase, '-password', password, ...(playersSignIn ? ['-players-sign-in'] : []), ...(seasons > 1 ? ['-seasons', String(seasons)] : [])], {
    cwd: resolve(webDir, '..'),
    env: { ...process.env, DATABASE_URL: url.toString() },
    encoding: 'utf8',
  })
  if (r.status !== 0) drop()
  assert.equal(r.status, 0, `seed-demo: ${r.stderr}`)
  return { url: url.toString(), drop }
}
