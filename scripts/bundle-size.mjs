#!/usr/bin/env node
// JavaScript a first visit downloads per page, gzipped, from a built web/dist: index.html's
// entry and modulepreloads, plus the page's lazy route chunk and every chunk it imports
// statically. The last columns add what the page fetches right after its first render without
// the visitor doing anything (the live socket, the footer, a page's parts below the fold), which
// the first column leaves out. Run after `npm run build` in web/: node scripts/bundle-size.mjs [web/dist]
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const dist = process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '../web/dist')
const assets = path.join(dist, 'assets')
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8')
const files = fs.readdirSync(assets).filter((f) => f.endsWith('.js'))

const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(assets, f)), { level: 9 }).length
const br = (f) => zlib.brotliCompressSync(fs.readFileSync(path.join(assets, f))).length
/** A chunk and every chunk it imports statically (what the browser fetches before running it). */
function closure(f, seen = new Set()) {
  if (seen.has(f)) return seen
  seen.add(f)
  const code = fs.readFileSync(path.join(assets, f), 'utf8')
  for (const m of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[\w${},*\s]+from\s*)?["']\.\/([^"']+\.js)["']/g)) closure(m[1], seen)
  return seen
}
const first = new Set()
for (const m of html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)) closure(m[1], first)

// The page → its route chunk (web/src/app/routes/<name>.tsx).
const pages = { '/': 'home', '/tournament': 'tournament', '/auction': 'auction', '/captain': 'captain', '/admin': 'admin', '/matches/{id}': 'match', '/ppt': 'ppt' }
// The chunks each page mounts lazily as it first renders (web/src/lib/live.ts, app/site-layout.tsx,
// app/routes/home.tsx); /ppt has no site layout. Chunks a visitor's action or an idle preload of
// the next page fetches are not counted.
const SITE = ['live-socket', 'site-extras']
const afterRender = { '/': [...SITE, 'registered-players'], '/ppt': ['live-socket'] }
const kb = (n) => (n / 1000).toFixed(1) // kB as Vite prints them
/** The chunk named `name` (name-HASH.js: Vite's 8-character hash), not one whose name only starts so (match-model-…). */
const chunkOf = (name) => files.find((f) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(f))
console.log('| page | JS files | gzip kB | brotli kB | then, after the first render: files | gzip kB |\n| --- | ---: | ---: | ---: | ---: | ---: |')
for (const [page, route] of Object.entries(pages)) {
  const set = new Set(first)
  if (route) {
    const chunk = chunkOf(route)
    if (!chunk) throw new Error(`no chunk for ${page} (${route}-*.js)`)
    closure(chunk, set)
  }
  let g = 0
  let b = 0
  for (const f of set) {
    g += gz(f)
    b += br(f)
  }
  const later = new Set()
  for (const name of afterRender[page] ?? SITE) {
    const chunk = chunkOf(name)
    if (chunk) closure(chunk, later) // an older build may not have it
  }
  for (const f of set) later.delete(f)
  const lg = [...later].reduce((n, f) => n + gz(f), 0)
  console.log(`| ${page} | ${set.size} | ${kb(g)} | ${kb(b)} | +${later.size} | +${kb(lg)} |`)
}
